import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { promisify } from 'node:util';
import { FoldOptionsError } from '../errors.ts';
import type { FoldSessionOptions } from '../session/index.ts';
import { readClaudeCodeJsonl } from '../transcripts/index.ts';
import type { RecordedUsage } from '../transcripts/types.ts';
import type { WriteMode } from './atomic-write.ts';
import { ClaudeCliError, loopFoldSessionOptions } from './claude-cli-fold-loop.ts';
import { ClaudeSessionFolder, defaultClaudeHome, type ClaudeFoldRecord } from './claude-session-folder.ts';

const run = promisify(execFile);

/** How often the loop reads the session file, and how long it must stay unchanged before a fold. */
export const DEFAULT_TMUX_POLL_MS = 250;
export const DEFAULT_TMUX_SETTLE_MS = 1_500;
/** How long to wait for the CLI to exit after SIGTERM before giving up on a fold. */
const EXIT_WAIT_MS = 10_000;

export interface ClaudeTmuxFoldLoopOptions {
  readonly executable?: string;
  readonly cwd: string;
  readonly claudeHome?: string;
  /** The session to run; a new uuid by default (passed as `--session-id`). */
  readonly sessionId?: string;
  /** Start with `--resume <sessionId>` (the session file exists already). */
  readonly resume?: boolean;
  readonly foldAtTokens: number;
  readonly hardEpochAtTokens?: number;
  readonly foldSession?: FoldSessionOptions;
  readonly mode?: WriteMode;
  readonly backup?: boolean;
  /** tmux server socket name (`tmux -L`), so the loop never touches the user's default server. */
  readonly tmuxSocket?: string;
  /** tmux session name; `warpfold-<first 8 of the session id>` by default. */
  readonly tmuxSession?: string;
  readonly tmux?: string;
  /** Environment for the CLI inside tmux, besides `CLAUDE_CONFIG_DIR`. */
  readonly paneEnv?: Readonly<Record<string, string>>;
  readonly extraArgs?: readonly string[];
  readonly pollMs?: number;
  readonly settleMs?: number;
  readonly now?: () => number;
  readonly onFold?: (fold: ClaudeFoldRecord) => void;
  readonly onError?: (error: unknown) => void;
}

/** Single-quotes a word for `sh`. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs interactive `claude` in a tmux pane (attach with `attachCommand`), tails its session
 * JSONL, and when the provider-reported input of the latest call reaches `foldAtTokens` and the
 * session has gone idle (the last record is a finished assistant turn, unchanged for
 * `settleMs`), stops the CLI, folds the session file and starts the CLI again in the same pane
 * with `--resume`. Attached terminals stay attached across the restart. The session id is fixed
 * (`--session-id`, then `--resume` of the same id, as Claude Code 2.x continues it); a CLI that
 * forks a resumed session under a new id is followed by `ClaudeCliFoldLoop`, not by this loop.
 */
export class ClaudeTmuxFoldLoop {
  readonly sessionId: string;
  readonly tmuxSession: string;
  lastUsage: RecordedUsage | undefined;
  readonly folds: ClaudeFoldRecord[] = [];
  private readonly folder: ClaudeSessionFolder;
  private readonly claudeHome: string;
  private timer: ReturnType<typeof setInterval> | null = null;
  private polling = false;
  private lastChange = { size: -1, mtimeMs: -1, at: 0 };
  private started = false;

  constructor(private readonly options: ClaudeTmuxFoldLoopOptions) {
    if (!(options.foldAtTokens > 0))
      throw new FoldOptionsError(
        'foldAtTokens',
        `ClaudeTmuxFoldLoop: foldAtTokens must be a positive number, got ${String(options.foldAtTokens)}`,
      );
    this.sessionId = options.sessionId ?? randomUUID();
    this.tmuxSession = options.tmuxSession ?? `warpfold-${this.sessionId.slice(0, 8)}`;
    this.claudeHome = options.claudeHome ?? defaultClaudeHome();
    this.folder = new ClaudeSessionFolder({
      cwd: options.cwd,
      claudeHome: this.claudeHome,
      foldSession: loopFoldSessionOptions(options.foldAtTokens, options.foldSession),
      mode: options.mode,
      backup: options.backup,
      now: options.now,
    });
  }

  /** The command that attaches a terminal to the CLI's pane. */
  get attachCommand(): string {
    return `${this.options.tmux ?? 'tmux'} -L ${shellQuote(this.socket)} attach -t ${shellQuote(this.tmuxSession)}`;
  }

  get sessionFile(): string {
    return this.folder.sessionFilePath(this.sessionId);
  }

  private get socket(): string {
    return this.options.tmuxSocket ?? 'warpfold';
  }

  private tmuxRun(args: readonly string[]): Promise<{ stdout: string }> {
    return run(this.options.tmux ?? 'tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  private command(resume: boolean): string {
    const env = { ...this.options.paneEnv, CLAUDE_CONFIG_DIR: this.claudeHome };
    const words = [
      'exec',
      'env',
      ...Object.entries(env).map(([key, value]) => `${key}=${value}`),
      this.options.executable ?? 'claude',
      ...(resume ? ['--resume', this.sessionId] : ['--session-id', this.sessionId]),
      ...(this.options.extraArgs ?? []),
    ];
    return words.map((word, index) => (index < 2 ? word : shellQuote(word))).join(' ');
  }

  /** Starts the CLI in a detached tmux session and begins tailing its session file. */
  async start(): Promise<void> {
    if (this.started) return;
    await this.tmuxRun([
      'new-session',
      '-d',
      '-s',
      this.tmuxSession,
      '-x',
      '200',
      '-y',
      '50',
      '-c',
      this.options.cwd,
      this.command(this.options.resume === true),
    ]);
    // Keep the pane (and attached clients) when the CLI exits for a fold.
    await this.tmuxRun(['set-option', '-t', this.tmuxSession, 'remain-on-exit', 'on']);
    this.started = true;
    this.timer = setInterval(() => {
      this.poll().catch((error: unknown) => this.options.onError?.(error));
    }, this.options.pollMs ?? DEFAULT_TMUX_POLL_MS);
  }

  /** Types a prompt into the CLI and presses Enter (what a user at the attached terminal would do). */
  async sendPrompt(text: string): Promise<void> {
    await this.tmuxRun(['send-keys', '-t', this.tmuxSession, '-l', '--', text]);
    await this.tmuxRun(['send-keys', '-t', this.tmuxSession, 'Enter']);
  }

  /** What the pane shows now. */
  async capture(): Promise<string> {
    return (await this.tmuxRun(['capture-pane', '-p', '-t', this.tmuxSession])).stdout;
  }

  /** Stops tailing and ends the tmux session. */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    while (this.polling) await sleep(20);
    if (!this.started) return;
    this.started = false;
    await this.tmuxRun(['kill-session', '-t', this.tmuxSession]).catch(() => undefined);
  }

  /** One tailing step: reads the session file and folds when due. Returns the fold it made, if any. */
  async poll(): Promise<ClaudeFoldRecord | null> {
    if (this.polling) return null;
    this.polling = true;
    try {
      const stat = await fs.stat(this.sessionFile).catch(() => null);
      if (stat === null) return null;
      const nowMs = Date.now();
      if (stat.size !== this.lastChange.size || stat.mtimeMs !== this.lastChange.mtimeMs) {
        this.lastChange = { size: stat.size, mtimeMs: stat.mtimeMs, at: nowMs };
        return null;
      }
      if (nowMs - this.lastChange.at < (this.options.settleMs ?? DEFAULT_TMUX_SETTLE_MS)) return null;
      const read = readClaudeCodeJsonl(await fs.readFile(this.sessionFile, 'utf8'));
      this.lastUsage = read.metadata.lastUsage;
      const measured = this.lastUsage?.measuredInputTokens ?? 0;
      const last = read.messages.at(-1);
      const idle =
        last?.role === 'assistant' &&
        !(
          Array.isArray(last.content) &&
          (last.content as Array<{ type?: string }>).some((block) => block.type === 'tool_use')
        );
      if (measured < this.options.foldAtTokens || !idle) return null;
      return await this.foldNow(measured);
    } finally {
      this.polling = false;
    }
  }

  private async foldNow(measured: number): Promise<ClaudeFoldRecord | null> {
    const hardEpoch = this.options.hardEpochAtTokens !== undefined && measured >= this.options.hardEpochAtTokens;
    const dryRun = this.options.mode === 'dry-run';
    if (!dryRun) await this.stopCli();
    const fold = await this.folder.fold(this.sessionId, measured, hardEpoch);
    if (!dryRun)
      await this.tmuxRun(['respawn-pane', '-t', this.tmuxSession, '-c', this.options.cwd, this.command(true)]);
    this.lastChange = { size: -1, mtimeMs: -1, at: 0 };
    if (fold !== null) {
      this.folds.push(fold);
      this.options.onFold?.(fold);
    }
    return fold;
  }

  /** Ends the CLI in the pane (SIGTERM to the pane's process) and waits until the pane reports it dead. */
  private async stopCli(): Promise<void> {
    const pid = Number(
      (await this.tmuxRun(['display-message', '-p', '-t', this.tmuxSession, '#{pane_pid}'])).stdout.trim(),
    );
    if (Number.isInteger(pid) && pid > 0) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    const deadline = Date.now() + EXIT_WAIT_MS;
    while (Date.now() < deadline) {
      const dead = (
        await this.tmuxRun(['display-message', '-p', '-t', this.tmuxSession, '#{pane_dead}'])
      ).stdout.trim();
      if (dead === '1') return;
      await sleep(50);
    }
    throw new ClaudeCliError(
      `ClaudeTmuxFoldLoop: the CLI in ${this.tmuxSession} did not exit within ${EXIT_WAIT_MS} ms`,
      null,
      '',
    );
  }
}
