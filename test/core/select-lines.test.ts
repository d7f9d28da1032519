import { describe, expect, it } from 'vitest';
import type { FoldLine } from '../../src/fold/fold-line.ts';
import { guaranteeNewestCalls } from '../../src/fold/build-band.ts';
import { renderLines } from '../../src/fold/render-lines.ts';
import { createLineSelector, selectLines } from '../../src/fold/select-lines.ts';
import { estimateTokens } from '../../src/text/estimate-tokens.ts';
import { phraseKeys } from '../../src/text/phrase-index.ts';

let order = 0;
const line = (text: string, kind: FoldLine['kind'] = 'assistant', wordValue = 1): FoldLine => ({
  order: order++,
  messageIndex: order,
  kind,
  lineId: order,
  fragment: 0,
  text,
  key: text,
  phrases: phraseKeys(text),
  identifiers: [],
  identifierValue: 0,
  wordValue,
  estimate: estimateTokens(text) + 1,
  mandatory: false,
});

const nothing = { has: () => false };

describe('selectLines', () => {
  const known = 'update the parser so that it handles nested brackets correctly';
  const later = `${known} and then report the column of the first unmatched bracket`;

  it('cuts the words of a line whose phrases the view already holds, marking the cut', () => {
    const present = new Set(phraseKeys(known));
    const picked = selectLines([line(later)], 1_000, { presentPhrases: present, presentLines: nothing, recency: 0 });
    const text = renderLines(picked);
    expect(text.startsWith('… ')).toBe(true);
    expect(text).toContain('correctly and then report the column of the first unmatched bracket');
    expect(text).not.toContain('update the parser');
  });

  it('leaves a line whole when the view holds none of its phrases', () => {
    const picked = selectLines([line(later)], 1_000, { presentPhrases: new Set(), presentLines: nothing, recency: 0 });
    expect(renderLines(picked)).toBe(later);
  });

  it("never cuts the agent's own arguments", () => {
    const present = new Set(phraseKeys(known));
    const picked = selectLines([line(later, 'argument')], 1_000, {
      presentPhrases: present,
      presentLines: nothing,
      recency: 0,
    });
    expect(renderLines(picked)).toBe(`  ⋮ ${later}`);
  });

  it('drops a line whose every phrase the view holds', () => {
    const present = new Set(phraseKeys(later));
    expect(selectLines([line(later)], 1_000, { presentPhrases: present, presentLines: nothing, recency: 0 })).toEqual(
      [],
    );
  });

  it('one selector tried at several budgets picks exactly what a fresh selection picks at each', () => {
    // forty lines that share some phrases with each other, so picks change what is left worth picking
    const lines = Array.from({ length: 40 }, (_, n) => {
      const text = Array.from({ length: 6 + (n % 7) }, (_, k) => `w${(n * 5 + k * (1 + (n % 3))) % 60}`).join(' ');
      return { ...line(text, n % 5 === 0 ? 'output' : 'assistant', 1 + (n % 3)), mandatory: n === 13 };
    });
    const context = { presentPhrases: new Set(phraseKeys(lines[7].text)), presentLines: nothing, recency: 0.5 };
    const select = createLineSelector(lines, context);
    for (const [budget, scale] of [
      [120, 1],
      [60, 0.7],
      [240, 1.3],
      [120, 1],
    ] as const) {
      expect(renderLines(select(budget, scale))).toBe(renderLines(selectLines(lines, budget, context, scale)));
    }
    expect(select(240, 1).length).toBeGreaterThan(select(60, 1).length);
  });
});

describe('guaranteeNewestCalls', () => {
  it('guarantees a retried command once, at its newest run, and spends the rest on other calls', () => {
    const calls = [
      line('▸ bash: npm run build → 3 lines', 'call'),
      line('▸ bash: pytest -x → error: AssertionError', 'call'),
      line('▸ bash: pytest -x → error: AssertionError', 'call'),
      line('▸ bash: pytest -x → 12 lines', 'call'),
    ];
    const allowance = calls[0].estimate + calls[3].estimate;
    const mandatory = guaranteeNewestCalls(calls, allowance).map((call) => call.mandatory);
    expect(mandatory).toEqual([true, false, false, true]);
  });
});
