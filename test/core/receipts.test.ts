/** Fold receipts on a real session (the inspector's bundled SWE-bench sample). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FoldSession, type FoldReceipt, type ProviderMessage } from '../../src/index.ts';

const SAMPLE = join(import.meta.dirname, '../../demo/public/samples/pydicom-901.json');
const messages = (JSON.parse(readFileSync(SAMPLE, 'utf8')) as { messages: ProviderMessage[] }).messages;

function replay(session: FoldSession, from = 1, to = messages.length): void {
  for (let index = from; index < to; index++)
    if (messages[index].role === 'assistant') session.prepare(messages.slice(0, index));
}

const rawText = (index: number) => JSON.stringify(messages[index]);

describe('fold receipts on a real session', () => {
  it('answer where an identifier went, from the receipts alone', () => {
    const session = new FoldSession({ pressureCeiling: 8_000, countTokens, now: () => 0 });
    replay(session);
    const receipts = session.receipts();
    expect(receipts.length).toBeGreaterThan(3);
    const sightings = receipts.flatMap((receipt) =>
      receipt.bands.flatMap((band) =>
        band.identifiers
          .filter((identifier) => identifier.value.endsWith('pydicom/config.py'))
          .map((identifier) => ({ receipt, band, identifier })),
      ),
    );
    expect(sightings.length).toBeGreaterThan(0);
    for (const { band, identifier } of sightings) {
      // it came from a raw message the band covers, which holds it verbatim
      expect(identifier.messageIndex).toBeGreaterThanOrEqual(band.messages[0]);
      expect(identifier.messageIndex).toBeLessThan(band.messages[1]);
      expect(rawText(identifier.messageIndex)).toContain(identifier.value);
    }
    // every kept line of the agent's own words is verbatim from its message
    for (const receipt of receipts)
      for (const band of receipt.bands)
        for (const index of band.agentLines) {
          const line = band.lines[index];
          const words = line.text.replace(/^∴ /, '').replace(/^… /, '').split(' … ')[0].replace(/ …$/, '');
          expect((messages[line.messageIndex].content as string).replace(/\s+/g, ' ')).toContain(
            words.replace(/\s+/g, ' ').slice(0, 60),
          );
        }
    // JSON, deterministic: a second session over the same calls gives the same bytes
    const twin = new FoldSession({ pressureCeiling: 8_000, countTokens, now: () => 0 });
    replay(twin);
    expect(JSON.stringify(twin.receipts())).toBe(JSON.stringify(receipts));
  });

  it('are per process: a restored session lists only the calls it made itself', () => {
    const points = messages.flatMap((message, index) => (index > 0 && message.role === 'assistant' ? [index] : []));
    const half = points[Math.floor(points.length / 2)];
    const first = new FoldSession({ pressureCeiling: 8_000, countTokens, now: () => 0 });
    replay(first, 1, half + 1);
    const before = first.receipts();
    const restored = new FoldSession({
      pressureCeiling: 8_000,
      countTokens,
      now: () => 0,
      restoredState: first.snapshot(),
    });
    expect(restored.receipts()).toEqual([]);
    replay(first, half + 1);
    replay(restored, half + 1);
    const later = first.receipts().slice(before.length);
    expect(later.length).toBeGreaterThan(0);
    // the receipts of the calls after the restore are the same, byte for byte
    expect(JSON.stringify(restored.receipts())).toBe(JSON.stringify(later));
  });

  it('keepReceipts: false keeps none for receipts(), while outcomes still carry theirs', () => {
    const session = new FoldSession({ pressureCeiling: 8_000, countTokens, now: () => 0, keepReceipts: false });
    const carried: FoldReceipt[] = [];
    for (let index = 1; index < messages.length; index++) {
      if (messages[index].role !== 'assistant') continue;
      const receipt = session.prepare(messages.slice(0, index)).receipt;
      if (receipt) carried.push(receipt);
    }
    expect(carried.length).toBeGreaterThan(3);
    expect(session.receipts()).toEqual([]);
  });

  it('keeps the newest keepReceipts receipts, and every one with true', () => {
    const every = new FoldSession({ pressureCeiling: 8_000, countTokens, now: () => 0, keepReceipts: true });
    const newest = new FoldSession({ pressureCeiling: 8_000, countTokens, now: () => 0, keepReceipts: 2 });
    for (let index = 1; index < messages.length; index++) {
      if (messages[index].role !== 'assistant') continue;
      every.prepare(messages.slice(0, index));
      newest.prepare(messages.slice(0, index));
    }
    const all = every.receipts();
    expect(all.length).toBeGreaterThan(3);
    expect(newest.receipts()).toEqual(all.slice(-2));
  });

  it('names keepReceipts when it is not a boolean or a whole number', () => {
    for (const keepReceipts of [-1, 1.5, 'all', Number.NaN])
      expect(() => new FoldSession({ keepReceipts: keepReceipts as number })).toThrow(
        /keepReceipts must be a boolean or a whole number/,
      );
  });

  it('reads a receipt the same whenever it is asked for, even after the history was rewritten', () => {
    const eager = new FoldSession({ pressureCeiling: 8_000, countTokens, now: () => 0 });
    const late = new FoldSession({ pressureCeiling: 8_000, countTokens, now: () => 0 });
    const read: FoldReceipt[] = [];
    const pending: Array<{ receipt?: FoldReceipt }> = [];
    for (let index = 1; index < messages.length; index++) {
      if (messages[index].role !== 'assistant') continue;
      const receipt = eager.prepare(messages.slice(0, index)).receipt;
      if (receipt) read.push(receipt);
      const outcome = late.prepare(messages.slice(0, index));
      // asking whether there is a receipt does not read it
      if ('receipt' in outcome) pending.push(outcome);
    }
    // the late session then sees a shorter, rewritten history before any receipt is read
    late.prepare([...messages.slice(0, 3), { role: 'user', content: 'Start over: summarize the repository layout.' }]);
    expect(read.length).toBeGreaterThan(3);
    expect(JSON.stringify(pending.map((outcome) => outcome.receipt))).toBe(JSON.stringify(read));
  });
});
