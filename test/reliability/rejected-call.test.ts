/**
 * Finding 1 of issue 14: a call that throws leaves the session exactly as it was before that call.
 * The repro (a rewritten message after a rejected one) and a property: random valid history,
 * random bad message, then the same valid continuation; the output and the snapshot equal those
 * of a session that never saw the bad call.
 */
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/fold/index.ts';
import { FoldSession, type FoldPrepareOptions, type ProviderMessage } from '../../src/index.ts';
import { arbitraryHistory } from '../helpers/arbitraries.ts';
import { DIALECTS } from '../helpers/dialects.ts';
import { preparePoints } from '../helpers/drive.ts';
import { BAD_MESSAGES } from './bad-messages.ts';

const words = (seed: number, count: number) =>
  Array.from({ length: count }, (_, n) => `word${(seed * 31 + n * 7) % 97}`).join(' ');

describe('a rejected call leaves the session as it was', () => {
  it('the repro: after a rejected message 5, a rewritten message 5 re-folds as a fresh session does', () => {
    const history: ProviderMessage[] = [{ role: 'system', content: 'You are a careful assistant.' }];
    for (let i = 0; i < 60; i++)
      history.push(
        { role: 'user', content: `task ${i} ${words(i, 160)}` },
        { role: 'assistant', content: words(i + 1_000, 30) },
      );
    const used = new FoldSession({ pressureCeiling: 4_000, countTokens, now: () => 0 });
    used.prepare(history);
    const withBad = history.map((message, index) => (index === 5 ? { role: 'user', content: 42 } : message));
    expect(() => used.prepare(withBad)).toThrow(/message 5/);
    const rewritten = history.map((message, index) => (index === 5 ? { role: 'user', content: 'REWRITTEN' } : message));
    const fresh = new FoldSession({ pressureCeiling: 4_000, countTokens, now: () => 0 });
    fresh.prepare(history);
    const expected = fresh.prepare(rewritten);
    const actual = used.prepare(rewritten);
    expect(expected.stats.epochReason).toBe('boundary-changed');
    expect(actual.stats).toEqual(expected.stats);
    expect(JSON.stringify(actual.messages)).toBe(JSON.stringify(expected.messages));
    expect(used.snapshot()).toBe(fresh.snapshot());
  });

  it('a counter that throws mid-fold leaves the session as it was', () => {
    const history: ProviderMessage[] = [{ role: 'system', content: 'sys' }];
    for (let i = 0; i < 40; i++)
      history.push(
        { role: 'user', content: `task ${i} ${words(i, 120)}` },
        { role: 'assistant', content: words(i + 500, 40) },
      );
    let armed = false;
    const counter = (text: string) => {
      if (armed && text.includes('[warpfold fold')) throw new Error('counter offline');
      return countTokens(text);
    };
    const used = new FoldSession({ pressureCeiling: 4_000, countTokens: counter, now: () => 0 });
    const fresh = new FoldSession({ pressureCeiling: 4_000, countTokens: counter, now: () => 0 });
    used.prepare(history.slice(0, 21));
    fresh.prepare(history.slice(0, 21));
    armed = true;
    expect(() => used.prepare(history)).toThrow(/counter offline/);
    armed = false;
    expect(JSON.stringify(used.prepare(history))).toBe(JSON.stringify(fresh.prepare(history)));
    expect(used.snapshot()).toBe(fresh.snapshot());
  });

  it.each(DIALECTS)('property: random history, random bad message, same continuation (%s)', (dialect) => {
    fc.assert(
      fc.property(
        arbitraryHistory({ maxTurns: 4, maxStepsPerTurn: 5, hugeWeight: 0, largeWeight: 1 }, dialect),
        fc.integer({ min: 1_500, max: 6_000 }),
        fc.constantFrom('o200k', 'estimate'),
        fc.nat(),
        fc.nat(),
        fc.constantFrom(...BAD_MESSAGES.map((_, index) => index)),
        fc.constantFrom('replace', 'insert', 'append'),
        fc.constantFrom('grown', 'rewritten', 'same'),
        fc.boolean(),
        ({ history }, ceiling, counter, cutSeed, badSeed, bad, placement, continuation, hardEpoch) => {
          const points = preparePoints(history);
          const cut = points[cutSeed % points.length];
          const prefix = history.slice(0, cut);
          const at = badSeed % prefix.length;
          const badMessage = BAD_MESSAGES[bad].make(dialect);
          const badHistory =
            placement === 'replace'
              ? prefix.map((message, index) => (index === at ? badMessage : message))
              : placement === 'insert'
                ? [...prefix.slice(0, at), badMessage, ...prefix.slice(at)]
                : [...history, badMessage];
          const next: ProviderMessage[] =
            continuation === 'grown'
              ? history
              : continuation === 'same'
                ? prefix
                : prefix.map((message, index) =>
                    index === at && message.role === 'user' && typeof message.content === 'string'
                      ? { ...message, content: `${message.content} (edited)` }
                      : message,
                  );
          const options = {
            pressureCeiling: ceiling,
            countTokens: counter === 'o200k' ? countTokens : estimateTokens,
            now: () => 0,
          };
          const used = new FoldSession(options);
          const clean = new FoldSession(options);
          used.prepare(prefix);
          clean.prepare(prefix);
          const badOptions: FoldPrepareOptions = hardEpoch ? { hardEpoch: true } : {};
          expect(() => used.prepare(badHistory, badOptions)).toThrow(BAD_MESSAGES[bad].error);
          expect(JSON.stringify(used.prepare(next))).toBe(JSON.stringify(clean.prepare(next)));
          expect(used.snapshot()).toBe(clean.snapshot());
        },
      ),
      { numRuns: 25, seed: 14_001 },
    );
  });
});
