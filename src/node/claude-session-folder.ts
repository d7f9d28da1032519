import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { EpochReason } from '../freeze/index.ts';
import type { ProviderMessage } from '../messages/types.ts';
import { claudeSessionFilePath } from '../providers/claude-cli/index.ts';
import { FoldSession, type FoldSessionOptions } from '../session/index.ts';
import { mergeAdjacentRoles, readClaudeCodeJsonl, TranscriptFormatError } from '../transcripts/index.ts';
import type { TranscriptIssue } from '../transcripts/types.ts';
import type { WriteMode } from './atomic-write.ts';
import { writeClaudeCodeSessionFile } from './cli-writers.ts';

/** Where Claude Code keeps its state: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function defaultClaudeHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR ?? join(homedir(), '.claude');
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
  /** Message records of the last rewrite (the file's prefix, byte for byte), or null while the file is still raw. */
  private writtenPrefix: string | null = null;
  private readonly now: () => number;

  constructor(private readonly options: ClaudeSessionFolderOptions) {
    this.foldSession = new FoldSession({ now: options.now, ...options.foldSession });
    this.now = options.now ?? Date.now;
  }

  sessionFilePath(sessionId: string): string {
    return claudeSessionFilePath({ claudeHome: this.options.claudeHome, cwd: this.options.cwd, sessionId });
  }

  /** The raw history as of the session file now: what was folded away plus what the CLI appended since. */
  async readRawHistory(sessionId: string): Promise<{ raw: ProviderMessage[]; text: string; issues: readonly TranscriptIssue[] }> {
    const text = await fs.readFile(this.sessionFilePath(sessionId), 'utf8');
    const whole = readClaudeCodeJsonl(text);
    // Someone else rewrote the file (or it was never folded): take it as raw rather than mix two histories.
    if (this.writtenPrefix === null || !text.startsWith(this.writtenPrefix)) return { raw: whole.messages, text, issues: whole.issues };
    const rest = text.slice(this.writtenPrefix.length);
    let appended: ProviderMessage[] = [];
    if (rest.trim() !== '') {
      try {
        appended = readClaudeCodeJsonl(rest).messages;
      } catch (error) {
        if (!(error instanceof TranscriptFormatError)) throw error;
      }
    }
    return { raw: mergeAdjacentRoles([...this.raw, ...appended], 'content'), text, issues: whole.issues };
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
      // The chain without its closing last-prompt record: the CLI appends after the chain.
      const lines = result.session.text.split('\n');
      const chainLines = lines.filter((line) => line !== '' && !line.startsWith('{"type":"last-prompt"'));
      this.writtenPrefix = chainLines.length === 0 ? '' : `${chainLines.join('\n')}\n`;
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
