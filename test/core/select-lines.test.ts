import { describe, expect, it } from 'vitest';
import type { FoldLine } from '../../src/fold/fold-line.ts';
import { guaranteeNewestCalls } from '../../src/fold/build-band.ts';
import { renderLines } from '../../src/fold/render-lines.ts';
import { selectLines } from '../../src/fold/select-lines.ts';
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
    const picked = selectLines([line(later, 'argument')], 1_000, { presentPhrases: present, presentLines: nothing, recency: 0 });
    expect(renderLines(picked)).toBe(`  ⋮ ${later}`);
  });

  it('drops a line whose every phrase the view holds', () => {
    const present = new Set(phraseKeys(later));
    expect(selectLines([line(later)], 1_000, { presentPhrases: present, presentLines: nothing, recency: 0 })).toEqual([]);
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
