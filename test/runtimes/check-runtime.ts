/**
 * The one check every runtime runs (Node, Chromium, workerd, Deno): replay the fixtures and
 * compare with the single checked-in digest file. Pure, like the replay itself.
 */
import expected from './expected-digests.json' with { type: 'json' };
import {
  digestDifferences,
  replayAll,
  RUNTIME_CEILINGS,
  totalDigest,
  type DigestFile,
  type RuntimeDigests,
} from './runtime-replay.ts';
import { REPLAY_SESSIONS } from './sessions.ts';

export const EXPECTED = expected as unknown as DigestFile;
/** Every session must fold at least this often at every ceiling, or the replay proves little. */
export const MINIMUM_EPOCHS = 2;

export interface RuntimeCheck {
  readonly digests: RuntimeDigests;
  /** Differences from the digest file, in words: empty when this runtime folds byte for byte alike. */
  readonly differences: string[];
  readonly total: string;
  readonly calls: number;
  /** Sessions that folded fewer than MINIMUM_EPOCHS times at some ceiling. */
  readonly underFolded: string[];
}

export function checkRuntime(): RuntimeCheck {
  const digests = replayAll(REPLAY_SESSIONS);
  const underFolded: string[] = [];
  let calls = 0;
  for (const [id, byCeiling] of Object.entries(digests)) {
    for (const ceiling of RUNTIME_CEILINGS) {
      const entry = byCeiling[String(ceiling)];
      calls += entry.views.length;
      if (entry.epochs < MINIMUM_EPOCHS) underFolded.push(`${id} at ${ceiling}: ${entry.epochs} epochs`);
    }
  }
  return {
    digests,
    differences: digestDifferences(EXPECTED.sessions, digests),
    total: totalDigest(digests),
    calls,
    underFolded,
  };
}
