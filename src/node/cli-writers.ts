import { promises as fs } from 'node:fs';
import type { ProviderMessage } from '../messages/types.ts';
import {
  buildClaudeCodeSession,
  claudeSessionFilePath,
  type ClaudeCodeSession,
} from '../providers/claude-cli/index.ts';
import { renderCodexRollout, type CodexMessageItem } from '../providers/codex-cli/index.ts';
import { rewriteGeminiCliChat } from '../providers/gemini-cli/index.ts';
import { writeFileAtomic, type AtomicWriteOptions, type AtomicWriteResult } from './atomic-write.ts';

/**
 * Writes a folded Claude Code session where Claude Code keeps it
 * (`<claudeHome>/projects/<cwd with non-alphanumerics as ->/<sessionId>.jsonl`), atomically.
 */
export async function writeClaudeCodeSessionFile(
  options: AtomicWriteOptions & {
    readonly claudeHome: string;
    readonly cwd: string;
    readonly sessionId: string;
    readonly messages: readonly ProviderMessage[];
    readonly model?: string;
    readonly version?: string;
    readonly now: () => number;
  },
): Promise<AtomicWriteResult & { readonly session: ClaudeCodeSession }> {
  const session = buildClaudeCodeSession({
    messages: options.messages,
    sessionId: options.sessionId,
    cwd: options.cwd,
    model: options.model,
    version: options.version,
    now: options.now,
  });
  const path = claudeSessionFilePath(options);
  const result = await writeFileAtomic(path, session.text, options);
  return { ...result, session };
}

/** Writes a Codex rollout holding a folded seed, atomically. */
export async function writeCodexRolloutFile(
  options: AtomicWriteOptions & {
    readonly path: string;
    readonly sessionId: string;
    readonly cwd: string;
    readonly items: readonly CodexMessageItem[];
    readonly cliVersion?: string;
    readonly now: () => number;
  },
): Promise<AtomicWriteResult> {
  return writeFileAtomic(options.path, renderCodexRollout(options), options);
}

/** Rewrites a Gemini CLI chat file to hold a folded view (header kept, `$set.messages`), atomically. */
export async function writeGeminiCliChatFile(
  options: AtomicWriteOptions & {
    readonly path: string;
    readonly contents: readonly ProviderMessage[];
    readonly now: () => number;
  },
): Promise<AtomicWriteResult> {
  const original = await fs.readFile(options.path, 'utf8');
  return writeFileAtomic(
    options.path,
    rewriteGeminiCliChat({ original, contents: options.contents, now: options.now }),
    options,
  );
}
