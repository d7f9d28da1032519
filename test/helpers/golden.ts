/**
 * Golden replays: real sessions (bundled in test/fixtures/sessions) driven call by call through FoldSession with a fixed
 * ceiling, the exact o200k counter and a clock that advances 20 s per call. Shared by
 * `scripts/update-golden.ts` (writes `test/golden/<id>.json`) and `test/core/golden.test.ts`
 * (recomputes and compares). Node-only: it hashes with node:crypto and reads the fixtures from disk.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import { fixturePath, readFixture, REPO_ROOT } from './fixtures.ts';

export { REPO_ROOT };
export const GOLDEN_DIR = join(REPO_ROOT, 'test/golden');
export const UPDATE_COMMAND = 'npx tsx scripts/update-golden.ts';

export const GOLDEN_CEILING = 8_000;
export const GOLDEN_CLOCK_STEP_MS = 20_000;

/** One session of each kind: a SWE-bench agent (msa-ds-chat), a Claude Code console log, a tau-bench airline dialogue. */
export const GOLDEN_SESSIONS = [
  'msa-ds-chat-dev-pydicom__pydicom-901',
  'claudecode-console-bookminder-day008-s1',
  'tau-airline-gpt-4o-task02-trial1',
] as const;

export interface GoldenCall {
  readonly call: number;
  /** Messages of the raw history this call saw. */
  readonly historyLength: number;
  /** SHA-256 (hex) of `JSON.stringify(outcome.messages)`. */
  readonly sha256: string;
  readonly epochReason: string | null;
}

export interface GoldenReplay {
  readonly id: string;
  readonly corpusFile: string;
  readonly pressureCeiling: number;
  readonly clockStepMs: number;
  readonly counter: 'gpt-tokenizer o200k_base';
  readonly calls: GoldenCall[];
  readonly finalView: ProviderMessage[];
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export function goldenPath(id: string): string {
  return join(GOLDEN_DIR, `${id}.json`);
}

/** Replays one fixture session as the reference scorer does: prepare before each assistant message (from the second message on). */
export function replayGolden(id: string): GoldenReplay {
  const { messages } = readFixture<ProviderMessage>(id);
  let clock = 0;
  const session = new FoldSession({ pressureCeiling: GOLDEN_CEILING, countTokens, now: () => clock });
  const calls: GoldenCall[] = [];
  let finalView: ProviderMessage[] = [];
  for (let index = 1; index < messages.length; index++) {
    if (messages[index].role !== 'assistant') continue;
    clock += GOLDEN_CLOCK_STEP_MS;
    const outcome = session.prepare(messages.slice(0, index));
    calls.push({
      call: calls.length,
      historyLength: index,
      sha256: sha256(JSON.stringify(outcome.messages)),
      epochReason: outcome.stats.epochReason ?? null,
    });
    finalView = outcome.messages;
  }
  return {
    id,
    corpusFile: relative(REPO_ROOT, fixturePath(id)),
    pressureCeiling: GOLDEN_CEILING,
    clockStepMs: GOLDEN_CLOCK_STEP_MS,
    counter: 'gpt-tokenizer o200k_base',
    calls,
    finalView: JSON.parse(JSON.stringify(finalView)),
  };
}

export function readGolden(id: string): GoldenReplay | undefined {
  const path = goldenPath(id);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as GoldenReplay) : undefined;
}

/** Stable, diff-friendly JSON: one call per line, the final view indented. */
export function serializeGolden(replay: GoldenReplay): string {
  const { calls, finalView, ...head } = replay;
  const lines = [
    '{',
    ...Object.entries(head).map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},`),
    '  "calls": [',
    calls.map((call) => `    ${JSON.stringify(call)}`).join(',\n'),
    '  ],',
    `  "finalView": ${JSON.stringify(finalView, null, 2).replace(/\n/g, '\n  ')}`,
    '}',
    '',
  ];
  return lines.join('\n');
}
