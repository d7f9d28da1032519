// Run: npx tsx examples/claude-tmux-loop.ts ["prompt" …]
// Starts interactive Claude Code in a tmux pane and prints the command to attach to it. The loop
// tails the session JSONL; when the measured input of the latest call reaches WARPFOLD_FOLD_AT
// tokens (default 120000) and the turn has finished, it stops the CLI, folds the session in place
// and restarts it in the same pane with --resume, so an attached terminal carries on. Prompts
// given on the command line are typed in one after another (each once the previous turn is done);
// then the loop runs until Ctrl-C, or until WARPFOLD_EXIT_AFTER_FOLDS folds have happened and the
// prompts are done. Env: CLAUDE_EXECUTABLE, CLAUDE_CONFIG_DIR, WARPFOLD_FOLD_AT, WARPFOLD_TMUX_SOCKET,
// WARPFOLD_SETTLE_MS (how long a finished turn must stay unchanged before a fold).
import { existsSync, readFileSync } from 'node:fs';
import { ClaudeTmuxFoldLoop, DEFAULT_TMUX_SETTLE_MS } from 'warpfold/node';
import { readClaudeCodeJsonl } from 'warpfold/transcripts';

const prompts = process.argv.slice(2);
const exitAfterFolds = process.env.WARPFOLD_EXIT_AFTER_FOLDS
  ? Number(process.env.WARPFOLD_EXIT_AFTER_FOLDS)
  : Number.POSITIVE_INFINITY;
const settleMs = Number(process.env.WARPFOLD_SETTLE_MS ?? DEFAULT_TMUX_SETTLE_MS);
const loop = new ClaudeTmuxFoldLoop({
  settleMs,
  executable: process.env.CLAUDE_EXECUTABLE ?? 'claude',
  cwd: process.cwd(),
  foldAtTokens: Number(process.env.WARPFOLD_FOLD_AT ?? 120_000),
  tmuxSocket: process.env.WARPFOLD_TMUX_SOCKET ?? 'warpfold',
  backup: true,
  onFold: (fold) =>
    console.log(
      `folded ${fold.rawMessages} raw messages into ${fold.viewMessages} (${fold.epochReason}) at ${fold.measuredInputTokens} input tokens; resumed with --resume ${fold.sessionId}`,
    ),
  onError: (error) => console.error(`tailing failed: ${String(error)}`),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Assistant turns the session file holds so far (a finished turn ends with one that calls no tool). */
function finishedTurns(): number {
  if (!existsSync(loop.sessionFile)) return 0;
  const { messages } = readClaudeCodeJsonl(readFileSync(loop.sessionFile, 'utf8'));
  return messages.filter(
    (message) =>
      message.role === 'assistant' &&
      !(
        Array.isArray(message.content) &&
        message.content.some((block) => (block as { type?: string }).type === 'tool_use')
      ),
  ).length;
}

let stopping = false;
process.on('SIGINT', () => {
  stopping = true;
});
await loop.start();
console.log(`Claude Code runs in tmux. Attach with:\n  ${loop.attachCommand}`);
try {
  for (const prompt of prompts) {
    if (stopping) break;
    // Give the loop its settle time first, so a fold due after the last turn happens before typing.
    await sleep(settleMs + 500);
    const before = finishedTurns();
    const folds = loop.folds.length;
    await loop.sendPrompt(prompt);
    while (!stopping && loop.folds.length === folds && finishedTurns() <= before) await sleep(200);
    console.log(`answered: ${prompt}`);
  }
  while (!stopping && loop.folds.length < exitAfterFolds) await sleep(200);
} finally {
  await loop.stop();
}
console.log(`${loop.folds.length} folds; session file ${loop.sessionFile}`);
