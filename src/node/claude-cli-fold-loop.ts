import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { FoldOptionsError, WarpfoldError } from '../errors.ts';
import { claudeStreamUserLine, readClaudeStreamLine, type ClaudeStreamEvent } from '../providers/claude-cli/index.ts';
import type { FoldSessionOptions } from '../session/index.ts';
import type { RecordedUsage } from '../transcripts/types.ts';
import type { WriteMode } from './atomic-write.ts';
import { ClaudeSessionFolder, defaultClaudeHome, type ClaudeFoldRecord } from './claude-session-folder.ts';

/**
 * Default view ceiling as a share of `foldAtTokens`: a fold brings the session to half its
 * trigger, so it runs a good while before the next fold (each fold rewrites the provider's cache).
 */
export const DEFAULT_FOLD_VIEW_SHARE = 0.5;

/** The fold session options a loop uses: the caller's, with the ceiling defaulting to a share of the trigger. */
export function loopFoldSessionOptions(
  foldAtTokens: number,
  options: FoldSessionOptions | undefined,
): FoldSessionOptions {
  return { pressureCeiling: Math.floor(foldAtTokens * DEFAULT_FOLD_VIEW_SHARE), ...options };
}

export interface ClaudeCliFoldLoopOptions {
  /** The Claude Code executable; `claude` on PATH by default. */
  readonly executable?: string;
  /** Working directory of the CLI (and of its project directory under `claudeHome`). */
  readonly cwd: string;
  /** Claude Code's state directory; `$CLAUDE_CONFIG_DIR` or `~/.claude` by default. Passed on as `CLAUDE_CONFIG_DIR`. */
  readonly claudeHome?: string;
  /** Fold once the provider reports this many input tokens for a call (fresh + cache reads + cache writes). */
  readonly foldAtTokens: number;
  /** Fold with a hard epoch (a rebirth seed) at this many measured input tokens. */
  readonly hardEpochAtTokens?: number;
  /** Options for the `FoldSession` planning the views; its `pressureCeiling` (default: half of `foldAtTokens`) bounds the folded file. */
  readonly foldSession?: FoldSessionOptions;
  /** `dry-run` writes the folded session beside the original and keeps the CLI running on the original. */
  readonly mode?: WriteMode;
  readonly backup?: boolean;
  /** Continue an existing session. */
  readonly resumeSessionId?: string;
  /** More CLI arguments (`--model`, `--allowedTools`, …). */
  readonly extraArgs?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly now?: () => number;
  /** Called for every stream-json line the CLI prints. */
  readonly onEvent?: (event: ClaudeStreamEvent) => void;
}

export interface ClaudeTurnResult {
  readonly sessionId: string;
  readonly result: string;
  readonly isError: boolean;
  /** The last model call's usage in this turn: the size of the context the CLI sent. */
  readonly usage: RecordedUsage | undefined;
  /** The fold this turn triggered, if it did. */
  readonly fold: ClaudeFoldRecord | null;
}

/** Thrown when the CLI exits, or ends a turn, in a way the loop cannot continue from. */
export class ClaudeCliError extends WarpfoldError {
  static override readonly errorName: string = 'ClaudeCliError';
  declare readonly code: 'cli-failed';
  /** The CLI's exit code; null while it still runs or when a signal ended it. */
  readonly exitCode: number | null;
  /** What the CLI printed on stderr. */
  readonly stderr: string;

  constructor(message: string, exitCode: number | null, stderr: string) {
    super('cli-failed', stderr.trim() === '' ? message : `${message}: ${stderr.trim()}`);
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<number | null>;
  stderr: string;
  waiting: ((event: ClaudeStreamEvent) => void) | null;
}

/**
 * Runs `claude --print --input-format stream-json --output-format stream-json`, one user turn at a
 * time. It learns the session id from the stream and tracks the usage the provider reports; when
 * a call's measured input reaches `foldAtTokens` it ends the CLI, folds the session JSONL (a tail
 * fold, or a hard epoch at `hardEpochAtTokens`), rewrites it atomically, and starts the CLI again
 * with `--resume <session-id>` at the next turn. `mode: 'dry-run'` writes a sidecar and keeps going.
 */
export class ClaudeCliFoldLoop {
  sessionId: string | null;
  lastUsage: RecordedUsage | undefined;
  readonly folds: ClaudeFoldRecord[] = [];
  private readonly folder: ClaudeSessionFolder;
  private readonly claudeHome: string;
  private running: Running | null = null;

  constructor(private readonly options: ClaudeCliFoldLoopOptions) {
    if (!(options.foldAtTokens > 0))
      throw new FoldOptionsError(
        'foldAtTokens',
        `ClaudeCliFoldLoop: foldAtTokens must be a positive number, got ${String(options.foldAtTokens)}`,
      );
    this.claudeHome = options.claudeHome ?? defaultClaudeHome(options.env ?? process.env);
    this.sessionId = options.resumeSessionId ?? null;
    this.folder = new ClaudeSessionFolder({
      cwd: options.cwd,
      claudeHome: this.claudeHome,
      foldSession: loopFoldSessionOptions(options.foldAtTokens, options.foldSession),
      mode: options.mode,
      backup: options.backup,
      now: options.now,
    });
  }

  /** The session JSONL the CLI writes, once the session id is known. */
  get sessionFile(): string | null {
    return this.sessionId === null ? null : this.folder.sessionFilePath(this.sessionId);
  }

  /** Sends one user turn and resolves when the CLI reports its result (folding after it when due). */
  async send(text: string): Promise<ClaudeTurnResult> {
    const running = this.running ?? this.start();
    let lastAssistantUsage: RecordedUsage | undefined;
    const result = await new Promise<ClaudeStreamEvent>((resolve, reject) => {
      running.waiting = (event) => {
        if (event.type === 'assistant' && event.usage !== undefined) lastAssistantUsage = event.usage;
        if (event.type === 'result') resolve(event);
      };
      running.exited.then(
        (code) =>
          reject(
            new ClaudeCliError(`claude exited (code ${String(code)}) before the turn's result`, code, running.stderr),
          ),
        reject,
      );
      running.child.stdin.write(claudeStreamUserLine(text));
    });
    running.waiting = null;
    if (this.sessionId === null) throw new ClaudeCliError('claude never reported a session id', null, running.stderr);
    this.lastUsage = lastAssistantUsage ?? result.usage;
    const fold = await this.foldIfDue();
    return {
      sessionId: this.sessionId,
      result: result.result ?? '',
      isError: result.isError === true || result.subtype !== 'success',
      usage: this.lastUsage,
      fold,
    };
  }

  /** Ends the CLI (closing its input, as at the end of a conversation). */
  async close(): Promise<void> {
    const running = this.running;
    if (running === null) return;
    this.running = null;
    running.child.stdin.end();
    await running.exited;
  }

  private async foldIfDue(): Promise<ClaudeFoldRecord | null> {
    const measured = this.lastUsage?.measuredInputTokens;
    if (measured === undefined || measured < this.options.foldAtTokens || this.sessionId === null) return null;
    const hardEpoch = this.options.hardEpochAtTokens !== undefined && measured >= this.options.hardEpochAtTokens;
    const dryRun = this.options.mode === 'dry-run';
    // The CLI holds the session in memory: stop it before rewriting its file, resume afterwards.
    if (!dryRun) await this.close();
    const fold = await this.folder.fold(this.sessionId, measured, hardEpoch);
    if (fold !== null) this.folds.push(fold);
    return fold;
  }

  private start(): Running {
    const args = [
      '--print',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--verbose',
      ...(this.sessionId === null ? [] : ['--resume', this.sessionId]),
      ...(this.options.extraArgs ?? []),
    ];
    const child = spawn(this.options.executable ?? 'claude', args, {
      cwd: this.options.cwd,
      env: { ...(this.options.env ?? process.env), CLAUDE_CONFIG_DIR: this.claudeHome },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => {
      child.on('error', () => resolve(null));
      child.on('close', (code) => resolve(code));
    });
    const running: Running = { child, exited, stderr: '', waiting: null };
    // A CLI that died mid-write surfaces through `exited`; a broken pipe must not crash the host.
    child.stdin.on('error', () => undefined);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      running.stderr += chunk;
    });
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
      const event = readClaudeStreamLine(line);
      if (event === null) return;
      if (event.sessionId !== undefined) this.sessionId = event.sessionId;
      this.options.onEvent?.(event);
      running.waiting?.(event);
    });
    exited.then(() => {
      if (this.running === running) this.running = null;
    });
    this.running = running;
    return running;
  }
}
