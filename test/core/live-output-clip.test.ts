/**
 * One huge tool output arriving when bands are sealed: the view shows it clipped to the working
 * set over `outputsPerWorkingSet` and seals one more band, instead of re-folding the sealed
 * bands (which would rewrite the cached prefix) to make room for it.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FoldSession, type FoldOutcome, type ProviderMessage } from '../../src/index.ts';
import { viewTokens } from '../helpers/view-checks.ts';

const CEILING = 8_000;

const call = (id: string, command: string): ProviderMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } }],
});
const result = (id: string, content: string): ProviderMessage => ({ role: 'tool', tool_call_id: id, content });

function moduleSource(step: number, lines: number): string {
  const out: string[] = [];
  for (let line = 0; line < lines; line++)
    out.push(
      `def handler_${step}_${line}(request):  # src/service/module_${step}.py:${line + 1}`,
      `    return dispatch_table_${step}[${line}].run(request, retries=${line % 4})`,
    );
  return out.join('\n');
}

const HUGE = moduleSource(999, 160);

/**
 * Steps of small file views at 8,000 tokens until an epoch has sealed a second band; the very
 * next step views one ~6,000-token file. Returns the outcomes just before and at that step.
 */
function replay(outputsPerWorkingSet: number | undefined, parallel = 1): { before: FoldOutcome; at: FoldOutcome } {
  const messages: ProviderMessage[] = [
    { role: 'system', content: 'You are a careful coding agent.' },
    { role: 'user', content: 'Find why requests to the billing service time out, and fix it.' },
  ];
  const session = new FoldSession({
    pressureCeiling: CEILING,
    countTokens,
    now: () => 0,
    ...(outputsPerWorkingSet === undefined ? {} : { foldConfig: { outputsPerWorkingSet } }),
  });
  for (let step = 0; step < 200; step++) {
    messages.push(call(`c${step}`, `cat src/service/module_${step}.py`), result(`c${step}`, moduleSource(step, 12)));
    const before = session.prepare(messages);
    if (!before.stats.epochReason || before.stats.bands < 2) continue;
    if (parallel === 1) messages.push(call('huge', 'cat src/service/generated_routes.py'), result('huge', HUGE));
    else {
      // one step of parallel reads, as Claude Code issues them: one assistant message, several results
      const ids = Array.from({ length: parallel }, (_, n) => `read${n}`);
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: ids.map((id, n) => ({
          id,
          type: 'function',
          function: { name: 'bash', arguments: JSON.stringify({ command: `cat src/service/part_${n}.py` }) },
        })),
      });
      for (const [n, id] of ids.entries()) messages.push(result(id, moduleSource(500 + n, 45)));
    }
    return { before, at: session.prepare(messages) };
  }
  throw new Error('no second band sealed');
}

describe('a huge live tool output', () => {
  it('is shown clipped, and one more band seals while the sealed ones stay byte for byte', () => {
    const { before, at } = replay(undefined);
    expect(countTokens(HUGE)).toBeGreaterThan(0.5 * CEILING);
    expect(before.stats.bands).toBeGreaterThanOrEqual(2);
    expect(at.stats.epochReason).toBeDefined();
    expect(at.stats.merged).toBeUndefined();
    expect(at.stats.bands).toBe(before.stats.bands + 1);
    // the sealed prefix of the call before is the start of this view, unchanged
    const sealed = before.sealedBoundary! + 1;
    expect(JSON.stringify(at.messages.slice(0, sealed))).toBe(JSON.stringify(before.messages.slice(0, sealed)));
    const shown = at.messages.at(-1)!;
    expect(shown.tool_call_id).toBe('huge');
    expect(shown.content).toContain('[warpfold clipped');
    expect(shown.content).toContain(HUGE.slice(0, 200));
    expect(countTokens(shown.content as string)).toBeLessThanOrEqual(0.15 * CEILING);
    expect(at.stats.clippedMessages).toBe(1);
    expect(viewTokens(at.messages, countTokens)).toBeLessThanOrEqual(CEILING);
  });

  it('clips parallel outputs of one step to one level, so together they take the same share', () => {
    const { before, at } = replay(undefined, 4);
    expect(at.stats.merged).toBeUndefined();
    expect(at.stats.bands).toBe(before.stats.bands + 1);
    const results = at.messages.filter(
      (message) => typeof message.tool_call_id === 'string' && message.tool_call_id.startsWith('read'),
    );
    expect(results).toHaveLength(4);
    for (const message of results) expect(message.content).toContain('[warpfold clipped');
    const sizes = results.map((message) => countTokens(message.content as string));
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(0.15 * CEILING);
    // one level: no output is cut much deeper than another
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(0.25 * Math.max(...sizes));
  });

  it('let through whole, re-folds the sealed bands to fit', () => {
    const { before, at } = replay(0.01);
    expect(before.stats.bands).toBeGreaterThanOrEqual(2);
    expect(at.stats.merged).toBe(true);
    expect(at.stats.clippedMessages).toBe(0);
  });
});
