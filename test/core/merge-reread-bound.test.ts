/**
 * A merge re-reads at most `refoldRawLimit` raw tokens (eight ceilings, at least 128,000): sealed
 * bands older than that re-fold from the lines they show (their origins). So a merge deep into a
 * long session costs a bounded amount of work instead of a pass over the whole history, it never
 * brings back a line an old band had dropped, and a session restored from a snapshot folds
 * exactly as the original.
 */
import { describe, expect, it } from 'vitest';
import { sessionOpening, syntheticTurn } from '../helpers/workloads/synthetic-session.ts';
import { FoldSession, type FoldOutcome, type ProviderMessage, type SavedFoldSession } from '../../src/index.ts';
import { refoldRawLimit } from '../../src/session/plan-fold.ts';
import { countTokens } from '../../src/tokens/index.ts';

const CEILING = 2_000;
/** Long enough for a dozen merges of an oldest band past the bound; the restore check replays the first 260. */
const TURNS = 500;
const RESTORE_TURNS = 260;
const OMITTED = /^▸ (\d+) tool calls not shown/;
const HEADER = /^\[warpfold fold · messages (\d+)–(\d+) · (\d+) tokens\]/;

interface ShownBand {
  readonly start: number;
  readonly end: number;
  readonly rawTokens: number;
  readonly text: string;
}

/** The bands a view shows, read from their headers. */
function bandsOf(outcome: FoldOutcome): ShownBand[] {
  const bands: ShownBand[] = [];
  for (const message of outcome.messages) {
    const match = typeof message.content === 'string' ? HEADER.exec(message.content) : null;
    if (match)
      bands.push({
        start: Number(match[1]) - 1,
        end: Number(match[2]),
        rawTokens: Number(match[3]),
        text: message.content as string,
      });
  }
  return bands;
}

/** What each call of a synthetic session of TURNS turns returned; `history` ends as the whole session. */
function drive(session: FoldSession, history: ProviderMessage[] = []): FoldOutcome[] {
  history.push(...(sessionOpening() as ProviderMessage[]));
  const calls: FoldOutcome[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const [first, ...rest] = syntheticTurn(turn) as ProviderMessage[];
    if (first.role === 'user') history.push(first);
    calls.push(session.prepare(history));
    history.push(...(first.role === 'user' ? rest : [first, ...rest]));
  }
  return calls;
}

/** The pieces of a band line as shown, its `…` marks and kind prefix aside. */
const piecesOf = (line: string) =>
  line
    .replace(/^(?:» |∴ | {2}⋮ | {2}│ )/, '')
    .split(' … ')
    .map((piece) => piece.replace(/^… /, '').replace(/ …$/, ''))
    .filter(Boolean);

describe('a merge deep into a long session', () => {
  it('re-folds the bands past the bound from their own lines: no line an old band dropped comes back', () => {
    const calls = drive(new FoldSession({ pressureCeiling: CEILING, countTokens, now: () => 0, keepReceipts: true }));
    let checked = 0;
    for (let i = 1; i < calls.length; i++) {
      const outcome = calls[i];
      if (!outcome.stats.merged || !outcome.receipt) continue;
      const before = bandsOf(calls[i - 1]);
      const oldest = before[0];
      // only a merge that re-folds the oldest band, when that band alone is past the bound
      if (outcome.receipt.firstBand !== 0 || !oldest || oldest.rawTokens <= refoldRawLimit(CEILING)) continue;
      const merged = outcome.receipt.bands[0];
      for (const line of merged.lines) {
        if (line.messageIndex < oldest.start || line.messageIndex >= oldest.end) continue;
        for (const piece of piecesOf(line.text)) expect(oldest.text, `call ${i}: ${line.text}`).toContain(piece);
        checked++;
      }
    }
    // the session is long enough for several such merges, each with many lines from the oldest band
    expect(checked).toBeGreaterThan(50);
  });

  it('still accounts for every call of its stretch: shown on a skeleton line or counted', () => {
    const history: ProviderMessage[] = [];
    const session = new FoldSession({ pressureCeiling: CEILING, countTokens, now: () => 0 });
    const calls = drive(session, history);
    const callsIn = (start: number, end: number) =>
      history
        .slice(start, end)
        .reduce((sum, message) => sum + ((message as { tool_calls?: unknown[] }).tool_calls?.length ?? 0), 0);
    let checked = 0;
    for (const outcome of calls) {
      if (!outcome.stats.epochReason) continue;
      for (const band of bandsOf(outcome)) {
        const lines = band.text.split('\n');
        // the omitted-calls line follows the header (and the preamble, in a first band)
        const counted = Number(
          lines
            .slice(1, 3)
            .map((line) => OMITTED.exec(line)?.[1])
            .find(Boolean) ?? 0,
        );
        const shown = lines.filter((line) => line.startsWith('▸ ') && !OMITTED.test(line)).length;
        expect(shown + counted, `band ${band.start}–${band.end}`).toBe(callsIn(band.start, band.end));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('a session restored at any point folds every later call exactly as the original', () => {
    let clock = 0;
    const original = new FoldSession({ pressureCeiling: CEILING, countTokens, now: () => clock });
    const history = sessionOpening() as ProviderMessage[];
    const snapshots: Array<{ turn: number; state: string; history: ProviderMessage[] }> = [];
    const views: string[] = [];
    for (let turn = 0; turn < RESTORE_TURNS; turn++) {
      const [first, ...rest] = syntheticTurn(turn) as ProviderMessage[];
      if (first.role === 'user') history.push(first);
      clock = turn * 20_000;
      views.push(JSON.stringify(original.prepare(history).messages));
      history.push(...(first.role === 'user' ? rest : [first, ...rest]));
      if (turn % 40 === 39) snapshots.push({ turn: turn + 1, state: original.snapshot(), history: history.slice() });
    }
    const saved = snapshots.map((snapshot) => JSON.parse(snapshot.state) as SavedFoldSession);
    // the snapshots carry the origins a later merge re-folds from
    expect(Math.max(...saved.map((one) => one.state.bands.length))).toBeGreaterThan(1);
    expect(saved.every((one) => one.state.bands.every((band) => band.origins !== undefined))).toBe(true);
    for (const snapshot of snapshots) {
      const restored = new FoldSession({
        pressureCeiling: CEILING,
        countTokens,
        now: () => clock,
        restoredState: snapshot.state,
      });
      for (let turn = snapshot.turn; turn < RESTORE_TURNS; turn++) {
        const [first, ...rest] = syntheticTurn(turn) as ProviderMessage[];
        if (first.role === 'user') snapshot.history.push(first);
        clock = turn * 20_000;
        expect(
          JSON.stringify(restored.prepare(snapshot.history).messages),
          `restored after turn ${snapshot.turn}, turn ${turn}`,
        ).toBe(views[turn]);
        snapshot.history.push(...(first.role === 'user' ? rest : [first, ...rest]));
      }
    }
  });
});
