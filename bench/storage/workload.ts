// The storage bench workload, generated from a seed so every backend and runtime stores the same
// records: 10,000 episodes over 1,000 file paths, recall queries by path, and a 1,000-message session.
// Pure module (no node:*), bundled as is into the Chromium page and the workerd worker.
import type { Episode, EpisodeFile } from '../../src/episodes/types.ts';
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import type { JsonValue } from '../../src/storage/index.ts';
import { countTokens } from '../../src/tokens/index.ts';
import { noiseSource } from '../../test/helpers/workloads/seeded-random.ts';
import { sessionOpening, syntheticTurn } from '../../test/helpers/workloads/synthetic-session.ts';
import { STORAGE_BENCH_EPISODES, STORAGE_BENCH_RECALLS, STORAGE_BENCH_SESSION_MESSAGES } from './settings.ts';

/** 10 directories × 100 file names: each basename is shared by 10 paths, as `index.ts` is in real repositories. */
const DIRECTORIES = 10;
const NAMES = 100;

const pathOf = (index: number) =>
  `src/package${index % DIRECTORIES}/module-${Math.floor(index / DIRECTORIES) % NAMES}.ts`;

export function benchEpisodes(count = STORAGE_BENCH_EPISODES): Episode[] {
  const noise = noiseSource(9_001);
  return Array.from({ length: count }, (_, index): Episode => {
    const sessionId = `session-${Math.floor(index / 50)}`;
    const start = (index % 50) * 8;
    const files: EpisodeFile[] = [];
    for (let file = 0; file < 2; file++) {
      const path = pathOf(noise.integer(DIRECTORIES * NAMES));
      if (!files.some((known) => known.path === path))
        files.push({ path, how: noise.pick(['read', 'edited', 'created'] as const) });
    }
    return {
      id: `ep-${index.toString(36).padStart(4, '0')}`,
      sessionId,
      request: `Request ${index}: fix the ${noise.pick(['parser', 'loader', 'ledger', 'router'])} in ${files[0].path}`,
      files,
      conclusions: [
        {
          kind: 'verdict',
          text: `🏁 ${files[0].path} now handles case ${noise.hex(6)}`,
          messageIndex: start + 3,
          paths: [files[0].path],
        },
      ],
      outcome: 'succeeded',
      span: {
        startIndex: start,
        endIndex: start + 8,
        startedAt: 1_700_000_000_000 + index * 60_000,
        endedAt: 1_700_000_000_000 + index * 60_000 + 45_000,
      },
    };
  });
}

export function benchRecallPaths(count = STORAGE_BENCH_RECALLS): string[] {
  const noise = noiseSource(4_242);
  return Array.from({ length: count }, () => pathOf(noise.integer(DIRECTORIES * NAMES)));
}

export interface BenchSession {
  readonly messages: number;
  /** What `snapshot()` saved after the last call, parsed. */
  readonly state: JsonValue;
  /** The state with the whole history beside it, as a host keeping both in one record would save. */
  readonly stateWithHistory: JsonValue;
}

/** A synthetic session of at least `messages` messages, folded at a 16,000-token ceiling every 10 turns. */
export function benchSession(messages = STORAGE_BENCH_SESSION_MESSAGES): BenchSession {
  const history: ProviderMessage[] = sessionOpening() as ProviderMessage[];
  let clock = 1_700_000_000_000;
  const session = new FoldSession({ pressureCeiling: 16_000, countTokens, now: () => clock });
  for (let turn = 0; history.length < messages; turn++) {
    history.push(...(syntheticTurn(turn) as ProviderMessage[]));
    if (turn % 10 === 9) {
      clock += 30_000;
      session.prepare(history);
    }
  }
  session.prepare(history);
  const state = JSON.parse(session.snapshot()) as JsonValue;
  return { messages: history.length, state, stateWithHistory: { state, history: history as unknown as JsonValue } };
}
