// Run: npx tsx examples/claude-cli-loop.ts "first prompt" "second prompt" …
// Drives Claude Code in print mode (stream-json), one prompt per turn, in the working directory.
// When a call's measured input reaches WARPFOLD_FOLD_AT tokens (default 120000), the loop stops
// the CLI, folds its session JSONL in place (a raw backup kept beside it) and resumes it with
// --resume. Env: CLAUDE_EXECUTABLE (default `claude`), CLAUDE_CONFIG_DIR, WARPFOLD_FOLD_AT,
// WARPFOLD_HARD_EPOCH_AT, WARPFOLD_MODE=dry-run (write a sidecar, leave the session alone).
import { ClaudeCliFoldLoop } from 'warpfold/node';

const prompts = process.argv.slice(2);
if (prompts.length === 0) {
  console.error('usage: claude-cli-loop.ts "prompt" ["prompt" …]');
  process.exit(2);
}
const loop = new ClaudeCliFoldLoop({
  executable: process.env.CLAUDE_EXECUTABLE ?? 'claude',
  cwd: process.cwd(),
  foldAtTokens: Number(process.env.WARPFOLD_FOLD_AT ?? 120_000),
  hardEpochAtTokens: process.env.WARPFOLD_HARD_EPOCH_AT ? Number(process.env.WARPFOLD_HARD_EPOCH_AT) : undefined,
  mode: process.env.WARPFOLD_MODE === 'dry-run' ? 'dry-run' : 'write',
  backup: true,
});
try {
  for (const [index, prompt] of prompts.entries()) {
    const turn = await loop.send(prompt);
    console.log(
      `turn ${index + 1} (session ${turn.sessionId}): ${turn.usage?.measuredInputTokens ?? '?'} input tokens`,
    );
    console.log(`  ${turn.result.split('\n').join('\n  ')}`);
    if (turn.fold !== null) {
      const fold = turn.fold;
      console.log(
        `  folded ${fold.rawMessages} raw messages into ${fold.viewMessages} (${fold.epochReason}), ${fold.bytesBefore} → ${fold.bytesAfter} bytes, ${fold.mode === 'dry-run' ? `sidecar ${fold.path}` : `backup ${fold.backupPath ?? 'none'}`}`,
      );
    }
  }
} finally {
  await loop.close();
}
console.log(`${loop.folds.length} folds; session file ${loop.sessionFile}`);
