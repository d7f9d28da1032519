/**
 * One conformance suite for the dialects' homes (`src/messages/dialects/`): every dialect reads
 * what it writes as warpfold's own text, clips the long texts of a tool step while its signed or
 * opaque parts stay byte for byte, and refuses a role it does not speak, naming it.
 */
import { describe, expect, it } from 'vitest';
import { FoldInputError } from '../../src/errors.ts';
import { DIALECT_CODECS } from '../../src/messages/dialects/index.ts';
import { readMessage, SYNTHETIC_MARKER } from '../../src/messages/read-message.ts';
import { ToolCallLedger } from '../../src/messages/tool-call-ledger.ts';
import { DIALECTS, type Dialect, type ProviderMessage } from '../../src/messages/types.ts';

const LONG = 'output line '.repeat(200);
const CUT = '[cut]';

/** A call, its long result, and the signed or opaque part each dialect carries on the model's side. */
const STEPS: Record<
  Dialect,
  { readonly messages: ProviderMessage[]; readonly signed: (view: ProviderMessage[]) => unknown }
> = {
  openai: {
    messages: [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: LONG },
    ],
    signed: (view) => view[0].tool_calls,
  },
  anthropic: {
    messages: [
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: LONG, signature: 'EqQBCkYIBxgCKkB' },
          { type: 'redacted_thinking', data: 'opaque-bytes' },
          { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.ts' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: LONG }] },
    ],
    signed: (view) => (view[0].content as unknown[]).slice(0, 2),
  },
  gemini: {
    messages: [
      {
        role: 'model',
        parts: [{ functionCall: { name: 'read', args: { path: 'a.ts' } }, thoughtSignature: 'c2lnbmVk' }],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'read', response: { output: LONG } } }] },
    ],
    signed: (view) => view[0].parts,
  },
  'openai-responses': {
    messages: [
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: LONG }], encrypted_content: 'gAAAAB' },
      { type: 'function_call', call_id: 'c1', name: 'read', arguments: '{"path":"a.ts"}' },
      { type: 'function_call_output', call_id: 'c1', output: LONG },
    ],
    signed: (view) => view[0],
  },
  'ai-sdk': {
    messages: [
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: LONG, providerOptions: { anthropic: { signature: 'EqQBCkYIBxgCKkB' } } },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a.ts' } },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: LONG } }],
      },
    ],
    signed: (view) => (view[0].content as unknown[])[0],
  },
};

const ROLE_NOBODY_SPEAKS = 'narrator';

describe.each(DIALECTS)('the %s dialect', (dialect) => {
  const codec = DIALECT_CODECS[dialect];

  it('reads its own synthetic messages back as warpfold text, never a turn boundary', () => {
    for (const role of ['user', 'assistant'] as const) {
      const text = `${SYNTHETIC_MARKER} fold · messages 1–4]\nkept line`;
      const read = readMessage(codec.writeSynthetic(role, text), 0, dialect, new ToolCallLedger());
      expect(read.role).toBe(role);
      expect(read.text).toBe(text);
      expect(read.isTurnBoundary).toBe(false);
    }
  });

  it('clips the tool output and keeps the signed or opaque parts byte for byte', () => {
    const { messages, signed } = STEPS[dialect];
    const before = JSON.stringify(signed(messages));
    const clipped = messages.map((message) => codec.clip(message, (text) => (text.length > 100 ? CUT : text)));
    expect(JSON.stringify(signed(clipped))).toBe(before);
    expect(JSON.stringify(clipped.at(-1))).toContain(CUT);
    expect(JSON.stringify(clipped.at(-1))).not.toContain(LONG.slice(0, 200));
    // the source is never changed
    expect(JSON.stringify(messages)).toContain(LONG.slice(0, 200));
    // the step still pairs after clipping
    const ledger = new ToolCallLedger();
    const read = clipped.map((message, index) => readMessage(message, index, dialect, ledger));
    expect(read.at(-1)?.toolResults).toHaveLength(1);
  });

  it.each([ROLE_NOBODY_SPEAKS, 'constructor', 'toString', '__proto__'])(
    'refuses the role %s, naming it (a key of Object.prototype is no role)',
    (role) => {
      const message: ProviderMessage =
        dialect === 'gemini' ? { role, parts: [{ text: 'hi' }] } : { role, content: 'hi' };
      expect(() => readMessage(message, 3, dialect, new ToolCallLedger())).toThrow(FoldInputError);
      expect(() => readMessage(message, 3, dialect, new ToolCallLedger())).toThrow(`unknown role "${role}"`);
    },
  );
});
