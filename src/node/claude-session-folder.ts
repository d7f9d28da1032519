import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { EpochReason } from '../freeze/freeze-state.ts';
import { contentBlocks } from '../messages/dialects/anthropic.ts';
import type { ProviderMessage } from '../messages/types.ts';
import { claudeSessionFilePath } from '../providers/claude-cli/index.ts';
import { FoldSession, type FoldSessionOptions } from '../session/index.ts';
import { mergeAdjacentRoles, readClaudeCodeJsonl } from '../transcripts/index.ts';
import type { TranscriptIssue } from '../transcripts/types.ts';
import type { WriteMode } from './atomic-write.ts';
import { writeClaudeCodeSessionFile } from './cli-writers.ts';

/** Where Claude Code keeps its state: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function defaultClaudeHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR ?? join(homedir(), '.claude');
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The rows a file holds after `written`, or null when it does not start with them. The last
 * written row may have grown: the CLI's next record of the same role joins it when read.
 */
export function rowsAfter(
  rows: readonly ProviderMessage[],
  written: readonly ProviderMessage[],
): ProviderMessage[] | null {
  if (written.length === 0) return [...rows];
  if (rows.length < written.length) return null;
  for (let index = 0; index < written.length - 1; index++) if (!same(rows[index], written[index])) return null;
  const last = written.length - 1;
  if (rows[last].role !== written[last].role) return null;
  const grown = contentBlocks(rows[last].content);
  const mine = contentBlocks(written[last].content);
  if (grown.length < mine.length || !mine.every((block, index) => same(block, grown[index]))) return null;
  const extra = grown.slice(mine.length);
  return [...(extra.length > 0 ? [{ role: rows[last].role, content: extra }] : []), ...rows.slice(written.length)];
}

/** What one fold did to a session file. */
export interface ClaudeFoldRecord {
  readonly sessionId: string;
  /** The file now holding the folded session: the session file, or its dry-run sidecar. */
  readonly path: string;
  readonly mode: WriteMode;
  readonly backupPath?: string;
  readonly measuredInputTokens: number;
  readonly hardEpoch: boolean;
  readonly epochReason: EpochReason | null;
  /** Raw messages the loop holds for this session, and messages in the folded file. */
  readonly rawMessages: number;
  readonly viewMessages: number;
  readonly bytesBefore: number;
  readonly bytesAfter: number;
  /** Lines of the session file the reader could not use. */
  readonly issues: readonly TranscriptIssue[];
}

export interface ClaudeSessionFolderOptions {
  readonly cwd: string;
  readonly claudeHome: string;
  /** Options for the `FoldSession` that plans the views (ceiling, token counter, …). */
  readonly foldSession?: FoldSessionOptions;
  readonly mode?: WriteMode;
  readonly backup?: boolean;
  readonly now?: () => number;
}

/**
 * The raw history of one Claude Code session, across rewrites of its file: the file after a
 * fold holds the view, so the raw messages live here, and what the CLI appends after the view is
 * added to them at the next fold.
 */
export class ClaudeSessionFolder {
  readonly foldSession: FoldSession;
  private raw: ProviderMessage[] = [];
  /** Rows of the last rewrite, or null while the file is still raw. */
  private written: ProviderMessage[] | null = null;
  private readonly now: () => number;

  constructor(private readonly options: ClaudeSessionFolderOptions) {
    this.foldSession = new FoldSession({ now: options.now, ...options.foldSession });
    this.now = options.now ?? Date.now;
  }

  sessionFilePath(sessionId: string): string {
    return claudeSessionFilePath({ claudeHome: this.options.claudeHome, cwd: this.options.cwd, sessionId });
  }

  /**
   * The raw history as of the session file now: what was folded away plus what the CLI appended
   * since. The file's rows are matched against the last rewrite by content, not by bytes, so a CLI
   * that copies the session into a new file on resume (new session id, new uuids) is followed too.
   */
  async readRawHistory(
    sessionId: string,
  ): Promise<{ raw: ProviderMessage[]; text: string; issues: readonly TranscriptIssue[] }> {
    const text = await fs.readFile(this.sessionFilePath(sessionId), 'utf8');
    const read = readClaudeCodeJsonl(text);
    const appended = this.written === null ? null : rowsAfter(read.messages, this.written);
    // Never folded, or someone else rewrote the file: take it as raw rather than mix two histories.
    if (appended === null) return { raw: read.messages, text, issues: read.issues };
    return { raw: mergeAdjacentRoles([...this.raw, ...appended], 'content'), text, issues: read.issues };
  }

  /**
   * Folds the session file now; null when the view folds nothing (the file stays as it is).
   * `measuredInputTokens` decided that a fold is due and is recorded, but is not handed to
   * `prepare`: it counts the CLI's own system prompt and tools, which the file does not hold, and
   * at fold time it is past the view's ceiling by construction, which `prepare` would read as a
   * call for a hard epoch. Hard epochs come from `hardEpoch` instead.
   */
  async fold(sessionId: string, measuredInputTokens: number, hardEpoch: boolean): Promise<ClaudeFoldRecord | null> {
    const { raw, text, issues } = await this.readRawHistory(sessionId);
    const view = this.foldSession.prepare(raw, { hardEpoch });
    if (view.foldedRange === null && !hardEpoch) return null;
    const mode = this.options.mode ?? 'write';
    const read = readClaudeCodeJsonl(text);
    const result = await writeClaudeCodeSessionFile({
      claudeHome: this.options.claudeHome,
      cwd: this.options.cwd,
      sessionId,
      messages: view.messages,
      model: read.metadata.model,
      version: read.metadata.cliVersion,
      now: this.now,
      mode,
      backup: this.options.backup,
    });
    if (mode === 'write') {
      this.raw = raw;
      this.written = result.session.rows;
    }
    return {
      sessionId,
      path: result.path,
      mode,
      backupPath: result.backupPath,
      measuredInputTokens,
      hardEpoch,
      epochReason: view.stats.epochReason ?? null,
      rawMessages: raw.length,
      viewMessages: result.session.rows.length,
      bytesBefore: Buffer.byteLength(text),
      bytesAfter: result.bytes,
      issues,
    };
  }
}
