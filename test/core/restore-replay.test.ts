/**
 * A session restored from `snapshot()` at any call must go on exactly as the original: through
 * later epochs too, where new bands are chosen against what the restored bands hold.
 */
import { readFileSync } from 'node:fs';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FoldSession } from '../../src/index.ts';
import type { ProviderMessage } from '../../src/messages/types.ts';
import { CORPUS_DIR, corpusPath, corpusPresent } from '../helpers/golden.ts';

const SESSION = 'claudecode-console-bookminder-day009-s1';
const present = corpusPresent();

describe.skipIf(!present)(`restore mid-session${present ? '' : ` — SKIPPED: dev corpus not found at ${CORPUS_DIR}`}`, () => {
  it('a session restored after its bands were sealed folds every later epoch byte for byte like the original', () => {
    const messages = (JSON.parse(readFileSync(corpusPath(SESSION), 'utf8')) as { messages: ProviderMessage[] }).messages;
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
      } else if (expected.stats.bands >= 3) restored = new FoldSession({ ...options, restoredState: original.snapshot() });
    }
    expect(epochsAfterRestore).toBeGreaterThan(10);
  });
});
