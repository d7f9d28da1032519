/**
 * One deterministic run of a FoldSession over a real session, shared by the resume tests in Node,
 * Chromium (e2e page) and workerd (Durable Object): same options, same clock per call, same digest.
 * The clock is a function of the call number, so a run resumed from storage reads the same time as
 * an uninterrupted one at every call.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { FoldSession, type FoldOutcome, type ProviderMessage, type SavedFoldSession } from '../../src/index.ts';
import type { JsonValue } from '../../src/storage/index.ts';
import { preparePoints } from '../helpers/drive.ts';

export const RESUME_CEILING_TOKENS = 4_000;
const CLOCK_START_MS = 1_700_000_000_000;
/** 20 s between calls: long enough apart that the freeze logic sees real gaps, as in the saved-state fixture. */
const CLOCK_STEP_MS = 20_000;

export interface CallResult {
  readonly call: number;
  readonly historyLength: number;
  readonly digest: string;
  readonly bands: number;
  readonly epochReason: string | null;
}

/** History lengths at which the host calls `prepare` (before each assistant message, then the whole). */
export function resumeCallPoints(history: readonly ProviderMessage[]): number[] {
  return preparePoints(history as Array<Record<string, unknown>>);
}

/** SHA-256 of the view's exact JSON text: equal digests mean byte-identical views. */
export async function viewDigest(outcome: FoldOutcome): Promise<string> {
  const bytes = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(outcome.messages)));
  return [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export class ResumeDriver {
  private time = CLOCK_START_MS;
  readonly session: FoldSession;

  constructor(restoredState?: JsonValue) {
    this.session = new FoldSession({
      pressureCeiling: RESUME_CEILING_TOKENS,
      countTokens,
      now: () => this.time,
      ...(restoredState === undefined ? {} : { restoredState: restoredState as unknown as SavedFoldSession }),
    });
  }

  async call(history: readonly ProviderMessage[], call: number): Promise<CallResult> {
    const points = resumeCallPoints(history);
    if (!(call >= 0 && call < points.length)) throw new RangeError(`call ${call} is outside 0..${points.length - 1}`);
    this.time = CLOCK_START_MS + (call + 1) * CLOCK_STEP_MS;
    const outcome = this.session.prepare(history.slice(0, points[call]));
    return {
      call,
      historyLength: points[call],
      digest: await viewDigest(outcome),
      bands: outcome.stats.bands,
      epochReason: outcome.stats.epochReason ?? null,
    };
  }

  /** What a host saves: the saved format as a plain JSON object. */
  snapshot(): JsonValue {
    return JSON.parse(this.session.snapshot()) as JsonValue;
  }
}

/** The uninterrupted run: every call on one session. */
export async function uninterruptedRun(history: readonly ProviderMessage[]): Promise<CallResult[]> {
  const driver = new ResumeDriver();
  const results: CallResult[] = [];
  for (let call = 0; call < resumeCallPoints(history).length; call++) results.push(await driver.call(history, call));
  return results;
}
