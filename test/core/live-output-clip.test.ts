/**
 * A large tool output arriving when bands are sealed: the live step is shown whole whenever it
 * fits in half the ceiling, the sealed bands giving way to make room; an output past that share
 * is clipped at line boundaries, with a note of what was removed, to the share and no less.
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
 * next step views one file (or several in parallel). Returns the outcomes just before and at that step.
 */
function replay(output: string, parallel = 1): { before: FoldOutcome; at: FoldOutcome } {
  const messages: ProviderMessage[] = [
    { role: 'system', content: 'You are a careful coding agent.' },
    { role: 'user', content: 'Find why requests to the billing service time out, and fix it.' },
  ];
  const session = new FoldSession({
    pressureCeiling: CEILING,
    countTokens,
    now: () => 0,
  });
  for (let step = 0; step < 200; step++) {
    messages.push(call(`c${step}`, `cat src/service/module_${step}.py`), result(`c${step}`, moduleSource(step, 12)));
    const before = session.prepare(messages);
    if (!before.stats.epochReason || before.stats.bands < 2) continue;
    if (parallel === 1) messages.push(call('huge', 'cat src/service/generated_routes.py'), result('huge', output));
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

const FITS = moduleSource(998, 70);

describe('a large live tool output', () => {
  it('is shown whole when it fits in half the ceiling: the sealed bands give way', () => {
    const { before, at } = replay(FITS);
    const size = countTokens(FITS);
    expect(size).toBeGreaterThan(0.3 * CEILING);
    expect(size).toBeLessThan(0.45 * CEILING);
    expect(before.stats.bands).toBeGreaterThanOrEqual(2);
    const shown = at.messages.at(-1)!;
    expect(shown.tool_call_id).toBe('huge');
    expect(shown.content).toBe(FITS);
    expect(at.stats.clippedMessages).toBe(0);
    expect(viewTokens(at.messages, countTokens)).toBeLessThanOrEqual(CEILING);
  });

  it('past half the ceiling, is clipped at line boundaries to that share, the cut noted', () => {
    const { at } = replay(HUGE);
    expect(countTokens(HUGE)).toBeGreaterThan(0.5 * CEILING);
    const shown = at.messages.at(-1)!;
    expect(shown.tool_call_id).toBe('huge');
    const content = shown.content as string;
    expect(content).toMatch(/\n\[warpfold clipped \d+ chars, \d+ lines/);
    // every kept line is a whole line of the output, and the kept head is its first lines
    const head = content.split('\n[warpfold clipped ')[0];
    expect(HUGE.startsWith(head) && head.endsWith('\n')).toBe(true);
    const tail = content.slice(content.indexOf(']\n') + 2);
    expect(HUGE.endsWith(tail) && HUGE[HUGE.length - tail.length - 1] === '\n').toBe(true);
    // the live step uses its share: more than the old quarter of the working set, at most half the ceiling
    expect(countTokens(content)).toBeGreaterThan(0.3 * CEILING);
    expect(countTokens(content)).toBeLessThanOrEqual(0.5 * CEILING);
    expect(at.stats.clippedMessages).toBe(1);
    expect(viewTokens(at.messages, countTokens)).toBeLessThanOrEqual(CEILING);
  });

  it('clips parallel outputs of one step to one level, so together they take the same share', () => {
    const { at } = replay(HUGE, 4);
    const results = at.messages.filter(
      (message) => typeof message.tool_call_id === 'string' && message.tool_call_id.startsWith('read'),
    );
    expect(results).toHaveLength(4);
    for (const message of results) expect(message.content).toContain('[warpfold clipped');
    const sizes = results.map((message) => countTokens(message.content as string));
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(0.5 * CEILING);
    // one level: no output is cut much deeper than another
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(0.25 * Math.max(...sizes));
    expect(viewTokens(at.messages, countTokens)).toBeLessThanOrEqual(CEILING);
  });
});
