/** The inspector's loader: every accepted format through the library's readers, and errors that name where. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, readInput } from '../../demo/src/load/read-input.ts';

const samples = join(import.meta.dirname, '../../demo/public/samples');

describe('readInput', () => {
  it('reads the bundled { messages } sample with its source and licence', async () => {
    const loaded = await readInput(readFileSync(join(samples, 'pydicom-901.json'), 'utf8'), 'pydicom-901.json');
    expect(loaded.format).toBe('benchmark-session');
    expect(loaded.messages).toHaveLength(124);
    expect(loaded.license).toBe('MIT');
    expect(loaded.source).toMatch(/^SWE-agent\/mini-swe-agent:/);
  });

  it('reads the Claude Code session JSONL sample as Anthropic messages', async () => {
    const loaded = await readInput(
      readFileSync(join(samples, 'claude-code-57bb5674.jsonl'), 'utf8'),
      'claude-code-57bb5674.jsonl',
    );
    expect(loaded.format).toBe('claude-code-jsonl');
    expect(loaded.messages.length).toBeGreaterThan(50);
    expect(loaded.notes).toEqual([]);
  });

  it('reads OpenAI, Anthropic and Gemini message arrays', async () => {
    const openai = [
      { role: 'user', content: 'list files' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a.py' },
    ];
    const anthropic = [
      { role: 'user', content: 'list files' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a.py' }] },
    ];
    const gemini = [
      { role: 'user', parts: [{ text: 'list files' }] },
      { role: 'model', parts: [{ functionCall: { name: 'bash', args: { command: 'ls' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'bash', response: { output: 'a.py' } } }] },
    ];
    expect((await readInput(JSON.stringify(openai), 'o.json')).format).toBe('openai-messages');
    expect((await readInput(JSON.stringify(anthropic), 'a.json')).format).toBe('anthropic-messages');
    expect((await readInput(JSON.stringify(gemini), 'g.json')).format).toBe('gemini-contents');
  });

  it.each([
    ['truncated JSON', 'cut.json', '{"messages": [{"role": "user", "content": "hi"}', 'line 1'],
    [
      'an orphan tool result',
      'orphan.json',
      JSON.stringify([
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'x', content: 'orphan' },
      ]),
      'message 2',
    ],
    ['plain text', 'notes.txt', 'hello world', 'line 1'],
    ['an empty file', 'empty.json', '  \n', 'empty.json'],
  ])('refuses %s, naming where', async (_, name, text, where) => {
    const error = await readInput(text, name).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).where).toBe(where);
    expect((error as InputError).problem.length).toBeGreaterThan(5);
  });
});
