import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentText, renderMessage, renderMessages, toolArgumentText } from '../../src/tokens/index.ts';
import { CORPUS_PATH, corpusAvailable, loadScorerFunctions, scorerAvailable } from '../bench/scorer-reference.ts';

describe.skipIf(!scorerAvailable || !corpusAvailable)('renderMessage against the reference scorer', () => {
  it('renders every message of the dev corpus byte-identically', () => {
    const scorer = loadScorerFunctions();
    const files = readdirSync(CORPUS_PATH).filter((file) => file.endsWith('.json') && file !== 'index.json');
    let compared = 0;
    for (const file of files) {
      const { messages } = JSON.parse(readFileSync(join(CORPUS_PATH, file), 'utf8')) as { messages: Array<Record<string, unknown>> };
      for (const message of messages) {
        expect(renderMessage(message)).toBe(scorer.renderMessage(message));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(4000);
  });

  it('renders Anthropic blocks and Gemini parts as the scorer does', () => {
    const scorer = loadScorerFunctions();
    const samples = [
      { role: 'assistant', content: [{ type: 'text', text: 'Reading it.' }, { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: '/a/b.ts' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'line 1\nline 2' }] }, { type: 'text', text: 'and hurry' }] },
      { role: 'model', parts: [{ text: 'Listing.' }, { functionCall: { name: 'ls', args: { dir: '.' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'ls', response: { output: 'a\nb' } } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'x', type: 'function', function: { name: 'bash', arguments: 'not json' } }] },
    ];
    for (const sample of samples) expect(renderMessage(sample)).toBe(scorer.renderMessage(sample));
  });
});

describe('renderMessage', () => {
  it('renders role, text and one line per tool call', () => {
    const message = { role: 'assistant', content: 'Running tests.', tool_calls: [{ function: { name: 'bash', arguments: '{"command":"npm test","cwd":"/repo"}' } }] };
    expect(renderMessage(message)).toBe('<assistant>\nRunning tests.\n[call bash] npm test /repo\n');
  });

  it('walks nested arguments and keeps unparseable ones as text', () => {
    expect(toolArgumentText('{"a":["x",{"b":2}],"c":null}')).toBe('x 2');
    expect(toolArgumentText('{broken')).toBe('{broken');
    expect(toolArgumentText(undefined)).toBe('');
  });

  it('joins block arrays with newlines and serializes unknown blocks', () => {
    expect(contentText([{ type: 'text', text: 'a' }, { type: 'image', source: 'x' }])).toBe('a\n{"type":"image","source":"x"}');
  });

  it('concatenates a prompt', () => {
    expect(renderMessages([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }])).toBe('<user>\nhi\n<assistant>\nhello\n');
  });
});
