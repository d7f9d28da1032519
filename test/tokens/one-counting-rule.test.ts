/**
 * One counting rule: the engine (FoldSession), warpfold/tokens, the command line's replay, the
 * baselines and the inspector give every message the same number. Thinking text counts and its
 * signature does not; redacted thinking costs nothing readable; an image costs what the
 * provider's formula says; a PDF costs its pages; tool blocks count their names, argument
 * values and result text.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../demo/src/fold/protocol.ts';
import { replayHistory } from '../../demo/src/fold/replay.ts';
import { messageTokens, resetSharedTokenMemo } from '../../src/baselines/index.ts';
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import { imageTokens, PDF_PAGE_TOKENS } from '../../src/messages/media-tokens.ts';
import { createMeasure } from '../../src/node/cli/report-replay.ts';
import { countMessageTokens, countPromptTokens, countTokens } from '../../src/tokens/index.ts';
import { pngBase64 } from '../helpers/block-kinds.ts';

const signature = 'EqQBCkYIBxgCKkDx9'.repeat(600);
const image = pngBase64(1_200, 900, 20_000);
const pdf = btoa(
  '%PDF-1.7\n1 0 obj << /Type /Pages /Count 2 >>\n2 0 obj << /Type /Page >>\n3 0 obj << /Type /Page >>\n',
);

const history: ProviderMessage[] = [
  { role: 'user', content: 'Why does the build fail? Screenshot and spec attached.' },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'The user wants the failing build explained; read the log first.', signature },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va'.repeat(400) },
      { type: 'text', text: 'Reading the build log.' },
      { type: 'tool_use', id: 'toolu_01', name: 'Read', input: { file_path: '/repo/build.log', limit: 200 } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_01', content: [{ type: 'text', text: 'error TS2339 in src/app.ts' }] },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: image } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
      { type: 'document', title: 'spec', source: { type: 'text', media_type: 'text/plain', data: 'Build must pass.' } },
      { type: 'text', text: 'Fix it please.' },
    ],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'Fixed the type error.' }] },
];

describe('one counting rule', () => {
  const engine = countPromptTokens(history, countTokens);

  it('counts thinking text but not its signature, and no base64', () => {
    const signed = countMessageTokens(history[1], countTokens);
    const unsigned = countMessageTokens(
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'The user wants the failing build explained; read the log first.' },
          (history[1].content as unknown[])[2],
          (history[1].content as unknown[])[3],
        ],
      },
      countTokens,
    );
    expect(signed).toBe(unsigned);
    expect(signed).toBeLessThan(100);
    const media = imageTokens('anthropic', image) + 2 * PDF_PAGE_TOKENS;
    expect(imageTokens('anthropic', image)).toBe(1_440);
    expect(countMessageTokens(history[2], countTokens) - media).toBeLessThan(60);
  });

  it('gives the same number in the engine, warpfold/tokens, the command line, the baselines and the inspector', async () => {
    const tokens = history.map((message) => countMessageTokens(message, countTokens, { dialect: 'anthropic' }));
    expect(tokens).toEqual(engine);
    const measure = createMeasure(countTokens);
    expect(history.map(measure.messageTokens)).toEqual(engine);
    resetSharedTokenMemo();
    expect(history.map((message) => messageTokens(message as never))).toEqual(engine);
    const prompt = history.slice(0, 3);
    const total = engine.slice(0, 3).reduce((sum, value) => sum + value, 0);
    const outcome = new FoldSession({ pressureCeiling: 100_000, countTokens, now: () => 0 }).prepare(prompt);
    expect(outcome.stats.rawTokens).toBe(total);
    const replay = await replayHistory(history, { ...DEFAULT_SETTINGS, ceiling: 100_000 });
    expect(replay?.calls.map((call) => call.rawTokens)).toEqual([engine[0], total]);
  });
});
