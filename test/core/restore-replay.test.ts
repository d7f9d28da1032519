/**
 * A session restored from `snapshot()` at any call must go on exactly as the original: through
 * later epochs too, where new bands are chosen against what the restored bands hold.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { contentsOf } from '../../src/fold/band-contents.ts';
import type { Band } from '../../src/fold/band.ts';
import { FoldSession } from '../../src/index.ts';
import type { ProviderMessage } from '../../src/messages/types.ts';
import { readFixture } from '../helpers/fixtures.ts';

// A long SWE-bench run: at 8,000 tokens it seals dozens of bands and goes through dozens of epochs.
const SESSION = 'msa-ds-chat-test-django__django-12589';

describe('restore mid-session', () => {
  it('a session restored after its bands were sealed folds every later epoch byte for byte like the original', () => {
    const { messages } = readFixture<ProviderMessage>(SESSION);
    const calls = messages.flatMap((message, j) => (message.role === 'assistant' && j > 0 ? [j] : []));
    let clock = 0;
    const options = { pressureCeiling: 8_000, now: () => clock, countTokens };
    const original = new FoldSession(options);
    let restored: FoldSession | undefined;
    let epochsAfterRestore = 0;
    for (const [n, j] of calls.entries()) {
      clock += 20_000;
      const history = messages.slice(0, j);
      const expected = original.prepare(history);
      if (restored) {
        const actual = restored.prepare(history);
        expect(JSON.stringify(actual.messages), `call ${n}`).toBe(JSON.stringify(expected.messages));
        if (expected.stats.epochReason) epochsAfterRestore++;
      } else if (expected.stats.bands >= 3)
        restored = new FoldSession({ ...options, restoredState: original.snapshot() });
    }
    expect(epochsAfterRestore).toBeGreaterThan(10);
  });
});

describe('band contents', () => {
  it('what a band records as it is built equals what is read back from its text after a restore', () => {
    const { messages } = readFixture<ProviderMessage>(SESSION);
    let clock = 0;
    const session = new FoldSession({ pressureCeiling: 8_000, now: () => clock, countTokens });
    const sealed = new Set<Band>();
    for (let j = 1; j < messages.length; j++) {
      if (messages[j].role !== 'assistant') continue;
      clock += 20_000;
      session.prepare(messages.slice(0, j));
      // the built bands themselves: their contents were recorded from the picked lines
      for (const band of (session as unknown as { state: { bands: Band[] } }).state.bands) sealed.add(band);
    }
    expect(sealed.size).toBeGreaterThan(20);
    const sorted = (set: ReadonlySet<string | number>) => [...set].map(String).sort();
    for (const band of sealed) {
      const built = contentsOf(band);
      const read = contentsOf(JSON.parse(JSON.stringify(band)) as Band);
      expect(sorted(built.identifiers)).toEqual(sorted(read.identifiers));
      expect(sorted(built.phrases)).toEqual(sorted(read.phrases));
      expect(sorted(built.lines)).toEqual(sorted(read.lines));
    }
  });
});
