import { describe, expect, it } from 'vitest';
import { rowsAfter } from '../../src/node/index.ts';

const written = [
  { role: 'user', content: 'fix it' },
  { role: 'user', content: [{ type: 'text', text: '[warpfold fold · messages 1–9]' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] },
  { role: 'user', content: [{ type: 'text', text: '[warpfold recall]' }] },
];

describe('rowsAfter', () => {
  it('returns what the CLI appended after the rewrite, splitting a grown last row', () => {
    const rows = [
      ...written.slice(0, 3),
      {
        role: 'user',
        content: [
          { type: 'text', text: '[warpfold recall]' },
          { type: 'text', text: 'next prompt' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ];
    expect(rowsAfter(rows, written)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'next prompt' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ]);
    expect(rowsAfter(written, written)).toEqual([]);
    expect(rowsAfter(written, [])).toEqual(written);
  });

  it('is null when the file does not start with the rewrite', () => {
    expect(rowsAfter(written.slice(0, 2), written)).toBeNull();
    expect(rowsAfter([{ role: 'user', content: 'something else' }, ...written.slice(1)], written)).toBeNull();
    expect(
      rowsAfter([...written.slice(0, 3), { role: 'user', content: [{ type: 'text', text: 'replaced' }] }], written),
    ).toBeNull();
  });
});
