import { describe, expect, it } from 'vitest';
import { contentText, renderMessage, renderMessages, toolArgumentText } from '../../src/tokens/index.ts';
import { digest, readScorerReference, RENDER_SAMPLES } from '../baselines/scorer-reference.ts';
import { readFixture } from '../helpers/fixtures.ts';

// The scorer's renderings are recorded in test/fixtures/scorer-reference (see scorer-reference.ts).
describe('renderMessage against the reference scorer', () => {
  const reference = readScorerReference();

  it('renders every message of the bundled sessions byte-identically', () => {
    let compared = 0;
    for (const [file, recorded] of Object.entries(reference.readings.sessions)) {
      const { messages } = readFixture(file);
      expect(recorded.render, file).toHaveLength(messages.length);
      messages.forEach((message, index) => {
        expect(digest(renderMessage(message)), `${file} message ${index}`).toBe(recorded.render[index]);
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('renders Anthropic blocks and Gemini parts as the scorer does', () => {
    expect(reference.readings.samples).toHaveLength(RENDER_SAMPLES.length);
    RENDER_SAMPLES.forEach((sample, index) => expect(renderMessage(sample)).toBe(reference.readings.samples[index]));
  });
});

describe('renderMessage', () => {
  it('renders role, text and one line per tool call', () => {
    const message = {
      role: 'assistant',
      content: 'Running tests.',
      tool_calls: [{ function: { name: 'bash', arguments: '{"command":"npm test","cwd":"/repo"}' } }],
    };
    expect(renderMessage(message)).toBe('<assistant>\nRunning tests.\n[call bash] npm test /repo\n');
  });

  it('walks nested arguments and keeps unparseable ones as text', () => {
    expect(toolArgumentText('{"a":["x",{"b":2}],"c":null}')).toBe('x 2');
    expect(toolArgumentText('{broken')).toBe('{broken');
    expect(toolArgumentText(undefined)).toBe('');
  });

  it('joins block arrays with newlines and never serializes a block or its base64', () => {
    const base64 = 'iVBORw0KGgo'.repeat(500);
    expect(
      contentText([
        { type: 'text', text: 'a' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64 } },
        { type: 'thinking', thinking: 'I think', signature: 'EqQBCkYIBxgCKkD'.repeat(200) },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3'.repeat(100) },
        { type: 'document', title: 'spec', source: { type: 'text', media_type: 'text/plain', data: 'body' } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: base64 } },
        { inlineData: { mimeType: 'image/png', data: base64 } },
      ]),
    ).toBe('a\n[image]\nI think\n\nspec\nbody\n[document]\n[inlineData]');
  });

  it('concatenates a prompt', () => {
    expect(
      renderMessages([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ]),
    ).toBe('<user>\nhi\n<assistant>\nhello\n');
  });
});
