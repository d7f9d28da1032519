/**
 * The cross-runtime golden replay: fixture sessions (real ones and synthetic ones in all three
 * dialects) driven call by call through FoldSession with a fixed clock, at ceilings small enough
 * that every session folds many times. Every prepared view is reduced to a digest. Pure: no
 * node:*, no timers, no randomness, so Node, Chromium, workerd and Deno run this very module and
 * must produce the digests recorded in expected-digests.json.
 */
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import { fnv1a } from '../../src/text/hash.ts';

export const RUNTIME_CEILINGS = [2_000, 8_000] as const;
/** The clock advances this much per call: past the 5-minute cache at no call, so epochs come from size alone. */
export const RUNTIME_CLOCK_STEP_MS = 20_000;
export const DIGEST_FORMAT = 'fnv1a-64 of JSON.stringify(view)';

export interface ReplaySession {
  readonly id: string;
  readonly messages: readonly ProviderMessage[];
}

export interface CeilingDigests {
  /** One digest per prepare() call, in call order. */
  readonly views: string[];
  /** Calls that started an epoch (a fold or re-fold). */
  readonly epochs: number;
}

/** Per session id, per ceiling: the digest of every view. */
export type RuntimeDigests = Record<string, Record<string, CeilingDigests>>;

export interface DigestFile {
  readonly format: string;
  readonly ceilings: readonly number[];
  readonly clockStepMs: number;
  readonly counter: string;
  /** Digest of every session's digests together: one value to compare by eye. */
  readonly total: string;
  readonly sessions: RuntimeDigests;
}

const hex = (value: number): string => value.toString(16).padStart(8, '0');

/** 64 bits from two FNV-1a passes with different seeds: small, pure, identical in every runtime. */
export function viewDigest(text: string): string {
  return hex(fnv1a(text)) + hex(fnv1a(text, 0x9747b28c));
}

const isAssistant = (message: ProviderMessage): boolean => message.role === 'assistant' || message.role === 'model';

/** Replays one session at one ceiling: prepare() before every assistant message from the second message on, as the scorer does. */
export function replayDigests(session: ReplaySession, ceiling: number): CeilingDigests {
  let clock = 0;
  const fold = new FoldSession({ pressureCeiling: ceiling, now: () => clock });
  const views: string[] = [];
  let epochs = 0;
  for (let index = 1; index < session.messages.length; index++) {
    if (!isAssistant(session.messages[index])) continue;
    clock += RUNTIME_CLOCK_STEP_MS;
    const outcome = fold.prepare(session.messages.slice(0, index));
    if (outcome.stats.epochReason) epochs++;
    views.push(viewDigest(JSON.stringify(outcome.messages)));
  }
  return { views, epochs };
}

export function replayAll(sessions: readonly ReplaySession[]): RuntimeDigests {
  const out: RuntimeDigests = {};
  for (const session of sessions) {
    out[session.id] = {};
    for (const ceiling of RUNTIME_CEILINGS) out[session.id][String(ceiling)] = replayDigests(session, ceiling);
  }
  return out;
}

export function totalDigest(digests: RuntimeDigests): string {
  return viewDigest(JSON.stringify(digests));
}

export function digestFile(digests: RuntimeDigests): DigestFile {
  return {
    format: DIGEST_FORMAT,
    ceilings: [...RUNTIME_CEILINGS],
    clockStepMs: RUNTIME_CLOCK_STEP_MS,
    counter: 'built-in estimator',
    total: totalDigest(digests),
    sessions: digests,
  };
}

/**
 * Where `actual` differs from `expected`, in words (empty when equal): the first differing call of
 * each session and ceiling, so a failure in any runtime says where the folds parted.
 */
export function digestDifferences(expected: RuntimeDigests, actual: RuntimeDigests): string[] {
  const problems: string[] = [];
  for (const id of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    if (!expected[id] || !actual[id]) {
      problems.push(`${id}: ${expected[id] ? 'not replayed' : 'not in the digest file'}`);
      continue;
    }
    for (const ceiling of new Set([...Object.keys(expected[id]), ...Object.keys(actual[id])])) {
      const want = expected[id][ceiling]?.views ?? [];
      const got = actual[id][ceiling]?.views ?? [];
      const at = want.findIndex((value, call) => got[call] !== value);
      if (at >= 0 || want.length !== got.length) {
        const call = at >= 0 ? at : Math.min(want.length, got.length);
        problems.push(
          `${id} at ${ceiling}: ${want.length} calls expected, ${got.length} replayed; first difference at call ${call} (${want[call] ?? '-'} → ${got[call] ?? '-'})`,
        );
      }
    }
  }
  return problems;
}
