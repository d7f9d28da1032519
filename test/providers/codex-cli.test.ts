import { describe, expect, it } from 'vitest';
import { FoldSession } from '../../src/index.ts';
import {
  buildCodexSeedItems,
  codexInjectItemsRequest,
  codexReconstructionDue,
  codexSeedRows,
  renderCodexRollout,
} from '../../src/providers/codex-cli/index.ts';
import { readCodexRolloutJsonl } from '../../src/transcripts/index.ts';

const now = () => 1_764_583_200_000;

/** A long OpenAI-dialect session as the Codex reader produces it: shell calls and their outputs. */
function codexHistory(turns: number) {
  const messages: Record<string, unknown>[] = [{ role: 'developer', content: 'You are Codex, a coding agent.' }];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ role: 'user', content: `step ${turn}: inspect src/module-${turn}.ts and fix the type error` });
    messages.push({
      role: 'assistant',
      content: `Reading module ${turn}.`,
      tool_calls: [
        {
          id: `call_${turn}`,
          type: 'function',
          function: {
            name: 'shell',
            arguments: JSON.stringify({ command: ['bash', '-lc', `sed -n 1,200p src/module-${turn}.ts`] }),
          },
        },
      ],
    });
    messages.push({
      role: 'tool',
      tool_call_id: `call_${turn}`,
      content: Array.from(
        { length: 60 },
        (_, line) => `export const value${turn}_${line}: number = ${line * turn}; // line ${line}`,
      ).join('\n'),
    });
  }
  messages.push({ role: 'assistant', content: 'All modules fixed.' });
  return messages;
}

describe('Codex CLI pack', () => {
  it('rows render calls and results as text; items are message items with input_text / output_text', () => {
    const rows = codexSeedRows([
      { role: 'developer', content: 'be brief' },
      { role: 'user', content: 'run tests' },
      {
        role: 'assistant',
        content: 'Running.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'shell', arguments: '{"command":["npm","test"]}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '1 failing' },
      { role: 'user', content: 'fix it' },
    ]);
    expect(rows).toEqual([
      { role: 'developer', text: 'be brief' },
      { role: 'user', text: 'run tests' },
      { role: 'assistant', text: 'Running.\n▸ shell {"command":["npm","test"]}' },
      { role: 'user', text: '[result of shell c1]\n1 failing\n\nfix it' },
    ]);
    expect(buildCodexSeedItems(rows)).toEqual([
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'be brief' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run tests' }] },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Running.\n▸ shell {"command":["npm","test"]}' }],
      },
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '[result of shell c1]\n1 failing\n\nfix it' }],
      },
    ]);
  });

  it('a folded seed written as a rollout reads back into the same rows', () => {
    const history = codexHistory(30);
    const view = new FoldSession({ pressureCeiling: 6_000 }).prepare(history);
    expect(view.foldedRange).not.toBeNull();
    const rows = codexSeedRows(view.messages);
    const items = buildCodexSeedItems(rows);
    const rollout = renderCodexRollout({ sessionId: '019a-seed', cwd: '/repo', items, now });
    const reread = readCodexRolloutJsonl(rollout);
    expect(reread.issues).toEqual([]);
    expect(reread.metadata.sessionId).toBe('019a-seed');
    expect(reread.messages).toEqual(rows.map((row) => ({ role: row.role, content: row.text })));
    expect(rollout).toContain('[warpfold fold');
    expect(renderCodexRollout({ sessionId: '019a-seed', cwd: '/repo', items, now })).toBe(rollout);
  });

  it('builds the thread/inject_items request', () => {
    const items = buildCodexSeedItems([{ role: 'user', text: 'seed' }]);
    expect(codexInjectItemsRequest({ id: 7, threadId: 'thr_123', items })).toEqual({
      id: 7,
      method: 'thread/inject_items',
      params: { threadId: 'thr_123', items },
    });
  });

  it('decides from measured usage when a reconstruction is due', () => {
    expect(codexReconstructionDue({ measuredInputTokens: undefined, pressureCeiling: 100_000 })).toEqual({
      due: false,
      reason: 'no-usage',
    });
    expect(codexReconstructionDue({ measuredInputTokens: 99_999, pressureCeiling: 100_000 })).toEqual({
      due: false,
      reason: 'under-budget',
    });
    expect(codexReconstructionDue({ measuredInputTokens: 100_000, pressureCeiling: 100_000 })).toEqual({
      due: true,
      reason: 'over-ceiling',
    });
    expect(
      codexReconstructionDue({ measuredInputTokens: 240_000, pressureCeiling: 400_000, contextWindow: 272_000 }),
    ).toEqual({ due: true, reason: 'near-context-window' });
    expect(() => codexReconstructionDue({ measuredInputTokens: 1, pressureCeiling: 0 })).toThrow(
      /codex-cli: pressureCeiling/,
    );
  });
});
