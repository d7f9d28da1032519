import { describe, expect, it } from 'vitest';
import { foldContext } from '../../src/fold/index.ts';
import type { ProviderMessage } from '../../src/messages/types.ts';

const foldText = (messages: readonly ProviderMessage[]) => {
  const band = messages.find((message) => typeof message.content === 'string' && message.content.startsWith('[warpfold fold'));
  if (!band || typeof band.content !== 'string') throw new Error('no fold in the view');
  return band.content;
};

describe('folded lines', () => {
  const boxed = `   │ - Have we run the test and confirmed it fails (RED)?${' '.repeat(60)}│`;
  const code = '        return [book for book in books if book.progress > 0]';
  const history: ProviderMessage[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Plan the next step of the feature.' },
    { role: 'assistant', content: `Here is the checklist:\n${boxed}\nAnd the filter:\n${code}\n${'Padding prose that explains the plan in some detail. '.repeat(40)}` },
    { role: 'user', content: 'Now write the failing test.' },
    { role: 'assistant', content: 'Writing it now.' },
  ];

  it('shrinks padding inside a line to one space and keeps its indentation', () => {
    const text = foldText(foldContext(history, { turnsToFold: 1, budgetTokens: 400 }).messages);
    expect(text).toContain('│ - Have we run the test and confirmed it fails (RED)? │');
    expect(text).not.toContain('(RED)?  ');
    expect(text).toContain(code);
  });
});
