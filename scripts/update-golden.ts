// Rewrites the golden replays in test/golden/ from the bundled sessions in test/fixtures/sessions. Run it when a change to the
// engine's output is intended, then review the diff of test/golden/*.json:
//
//   npx tsx scripts/update-golden.ts
//
// Each file holds, per prepare() call, the SHA-256 of the JSON view and the epoch reason, and the
// full final view (ceiling 8,000 tokens, exact o200k counter, clock +20 s per call).
import { mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import {
  GOLDEN_DIR,
  GOLDEN_SESSIONS,
  goldenPath,
  readGolden,
  REPO_ROOT,
  replayGolden,
  serializeGolden,
} from '../test/helpers/golden.ts';

mkdirSync(GOLDEN_DIR, { recursive: true });
for (const id of GOLDEN_SESSIONS) {
  const started = performance.now();
  const replay = replayGolden(id);
  const previous = readGolden(id);
  const changed = previous
    ? replay.calls.filter((call, n) => previous.calls[n]?.sha256 !== call.sha256).length +
      Math.abs(previous.calls.length - replay.calls.length)
    : replay.calls.length;
  writeFileSync(goldenPath(id), serializeGolden(replay));
  const epochs = replay.calls.filter((call) => call.epochReason).length;
  console.log(
    `${relative(REPO_ROOT, goldenPath(id))}: ${replay.calls.length} calls, ${epochs} epochs, ${changed} changed view(s), ${Math.round(performance.now() - started)} ms`,
  );
}
