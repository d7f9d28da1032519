/**
 * Fold receipts over generated histories in all three dialects: every item a receipt says a band
 * shows (lines, skeleton lines, identifiers) is in that band of the view the call returned, every
 * tool call of the covered messages is accounted for, receipts are plain deterministic JSON, and
 * `session.receipts()` lists exactly the receipts the outcomes carried.
 */
import fc from 'fast-check';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/fold/index.ts';
import { FoldSession, type FoldReceipt } from '../../src/index.ts';
import { fnv1a } from '../../src/text/hash.ts';
import { arbitraryHistory } from '../helpers/arbitraries.ts';
import { callsOf, DIALECTS } from '../helpers/dialects.ts';
import { preparePoints } from '../helpers/drive.ts';
import { foldBlocks } from '../helpers/view-checks.ts';

const RUNS = Number(process.env.FC_RUNS) || 30;

const settings = fc.record({
  ceiling: fc.integer({ min: 2_000, max: 8_000 }),
  exact: fc.boolean(),
  recall: fc.boolean(),
});

describe.each(DIALECTS)('fold receipts over generated %s histories', (dialect) => {
  it('every shown item is in the view, every call is accounted for, receipts replay identically', () => {
    let receiptsSeen = 0;
    let clippedOrCounted = 0;
    fc.assert(
      fc.property(
        arbitraryHistory({ maxTurns: 5, maxStepsPerTurn: 9, hugeWeight: 1 }, dialect),
        settings,
        (generated, options) => {
          const make = () =>
            new FoldSession({
              pressureCeiling: options.ceiling,
              countTokens: options.exact ? o200k : estimateTokens,
              now: () => 0,
              recall: options.recall,
            });
          const session = make();
          const twin = make();
          const carried: FoldReceipt[] = [];
          const history = generated.history;
          for (const point of preparePoints(history)) {
            const slice = history.slice(0, point);
            const outcome = session.prepare(slice);
            const twinOutcome = twin.prepare(structuredClone(slice));
            expect(JSON.stringify(twinOutcome.receipt)).toBe(JSON.stringify(outcome.receipt));
            const receipt = outcome.receipt;
            // a reuse seals nothing; an epoch without a receipt sealed no new band (a rebirth seed)
            if (!receipt) {
              if (outcome.stats.epochReason && outcome.stats.epochReason !== 'hard-epoch')
                expect(foldBlocks(outcome.messages).length === 0 || outcome.stats.clippedMessages > 0).toBe(true);
              continue;
            }
            carried.push(receipt);
            receiptsSeen++;
            expect(JSON.parse(JSON.stringify(receipt))).toEqual(receipt);
            expect(receipt.call).toBe(session.telemetry.calls);
            expect(receipt.epochReason).toBe(outcome.stats.epochReason);
            const blocks = foldBlocks(outcome.messages);
            receipt.bands.forEach((band, k) => {
              const block = blocks[receipt.firstBand + k];
              expect(block, `band ${receipt.firstBand + k} of the view`).toBeDefined();
              expect([block.start, block.end]).toEqual(band.messages);
              expect(band.textDigest).toBe(`fnv1a32:${fnv1a(block.text).toString(16).padStart(8, '0')}`);
              const shownLines = new Set(block.text.split('\n'));
              for (const line of band.lines)
                expect(shownLines.has(line.text), `line ${JSON.stringify(line.text)}`).toBe(true);
              for (const index of band.agentLines) expect(['assistant', 'reasoning']).toContain(band.lines[index].kind);
              for (const identifier of band.identifiers) {
                expect(block.text.includes(identifier.value), `identifier ${identifier.value}`).toBe(true);
                expect(identifier.messageIndex).toBeGreaterThanOrEqual(band.messages[0]);
                expect(identifier.messageIndex).toBeLessThan(band.messages[1]);
              }
              // every call of the covered raw messages, in order, with its provider id
              const calls = history
                .slice(band.messages[0], band.messages[1])
                .flatMap((message) => callsOf(message, dialect));
              expect(band.toolCalls.map((call) => call.name)).toEqual(calls.map((call) => call.name));
              for (const [i, call] of band.toolCalls.entries()) if (calls[i].id) expect(call.id).toBe(calls[i].id);
              for (const call of band.toolCalls) {
                if (call.shown === 'counted') expect(call.line).toBeUndefined();
                else expect(shownLines.has(call.line as string), `skeleton ${call.line}`).toBe(true);
              }
              const counted = band.toolCalls.filter((call) => call.shown === 'counted').length;
              clippedOrCounted += counted + band.toolCalls.filter((call) => call.shown === 'clipped').length;
              const omitted = /^▸ (\d+) tool calls not shown/m.exec(block.text);
              expect(omitted ? Number(omitted[1]) : 0).toBe(counted);
              expect(band.tokensAfter).toBeLessThan(band.tokensBefore);
              expect(block.rawTokens).toBe(band.tokensBefore);
            });
          }
          expect(session.receipts()).toEqual(carried);
        },
      ),
      { numRuns: RUNS, seed: 20_261_201 },
    );
    // the sample must exercise receipts, including calls not shown whole
    expect(receiptsSeen).toBeGreaterThan(RUNS);
    expect(clippedOrCounted).toBeGreaterThan(0);
  });
});
