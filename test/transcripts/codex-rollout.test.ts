import { describe, expect, it } from 'vitest';
import { FoldSession } from '../../src/index.ts';
import { readCodexRolloutJsonl, readTranscript, TranscriptFormatError } from '../../src/transcripts/index.ts';

// Lines in the shape Codex CLI writes to ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl.
const line = (type: string, payload: unknown, second = 0) =>
  JSON.stringify({ timestamp: `2026-11-30T10:00:${String(second).padStart(2, '0')}.000Z`, type, payload });
const rollout = [
  line('session_meta', {
    id: '019a2d7a-41c4-78b1-b7cc-a45d62a89cd5',
    timestamp: '2026-11-30T10:00:00.000Z',
    cwd: '/repo',
    originator: 'codex_cli_rs',
    cli_version: '0.63.0',
    instructions: null,
    source: 'cli',
  }),
  line('response_item', {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>' }],
  }),
  line('turn_context', {
    cwd: '/repo',
    approval_policy: 'on-request',
    model: 'gpt-5-codex',
    effort: 'medium',
    summary: 'auto',
  }),
  line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run the tests' }] }),
  line('event_msg', { type: 'user_message', message: 'run the tests', kind: 'plain' }),
  line('response_item', {
    type: 'reasoning',
    summary: [{ type: 'summary_text', text: '**Running tests**' }],
    content: null,
    encrypted_content: 'gAAAA',
  }),
  line('response_item', {
    type: 'function_call',
    name: 'shell',
    arguments: '{"command":["bash","-lc","npm test"]}',
    call_id: 'call_A',
  }),
  line('response_item', {
    type: 'function_call_output',
    call_id: 'call_A',
    output: '{"output":"1 failing","metadata":{"exit_code":1}}',
  }),
  line('event_msg', {
    type: 'token_count',
    info: {
      total_token_usage: {
        input_tokens: 9000,
        cached_input_tokens: 4000,
        output_tokens: 300,
        reasoning_output_tokens: 100,
        total_tokens: 9300,
      },
      last_token_usage: {
        input_tokens: 5000,
        cached_input_tokens: 3000,
        output_tokens: 120,
        reasoning_output_tokens: 40,
        total_tokens: 5120,
      },
      model_context_window: 272000,
    },
    rate_limits: null,
  }),
  line('response_item', {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'One test fails; patching.' }],
  }),
  line('response_item', {
    type: 'custom_tool_call',
    status: 'completed',
    call_id: 'call_B',
    name: 'apply_patch',
    input: '*** Begin Patch\n*** End Patch',
  }),
  line('response_item', {
    type: 'custom_tool_call_output',
    call_id: 'call_B',
    output: 'Success. Updated the following files:\nM src/a.ts',
  }),
  line('response_item', { type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'vitest' } }),
  line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Fixed.' }] }),
].join('\n');

describe('Codex CLI rollout JSONL', () => {
  it('reads items into OpenAI chat messages, calls on the assistant message they follow', () => {
    const result = readTranscript(rollout, { fileName: 'rollout-2026-11-30T10-00-00-019a2d7a.jsonl' });
    expect(result.format).toBe('codex-rollout-jsonl');
    expect(result.dialect).toBe('openai');
    expect(result.issues).toEqual([]);
    expect(result.messages).toEqual([
      { role: 'user', content: '<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>' },
      { role: 'user', content: 'run the tests' },
      {
        role: 'assistant',
        content: null,
        reasoning_content: '**Running tests**',
        tool_calls: [
          {
            id: 'call_A',
            type: 'function',
            function: { name: 'shell', arguments: '{"command":["bash","-lc","npm test"]}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_A', content: '{"output":"1 failing","metadata":{"exit_code":1}}' },
      {
        role: 'assistant',
        content: 'One test fails; patching.',
        tool_calls: [
          {
            id: 'call_B',
            type: 'function',
            function: { name: 'apply_patch', arguments: JSON.stringify({ input: '*** Begin Patch\n*** End Patch' }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_B', content: 'Success. Updated the following files:\nM src/a.ts' },
      { role: 'assistant', content: 'Fixed.' },
    ]);
    expect(result.metadata).toEqual({
      sessionId: '019a2d7a-41c4-78b1-b7cc-a45d62a89cd5',
      cwd: '/repo',
      model: 'gpt-5-codex',
      cliVersion: '0.63.0',
      lastUsage: {
        inputTokens: 2000,
        cacheReadTokens: 3000,
        cacheWriteTokens: 0,
        outputTokens: 120,
        measuredInputTokens: 5000,
      },
      // one token_count event: one call
      recordedCalls: [
        {
          inputTokens: 2000,
          cacheReadTokens: 3000,
          cacheWriteTokens: 0,
          cacheWriteOneHourTokens: 0,
          outputTokens: 120,
          measuredInputTokens: 5000,
          model: 'gpt-5-codex',
        },
      ],
    });
    expect(() => new FoldSession({ pressureCeiling: 8_000 }).prepare(result.messages)).not.toThrow();
  });

  it('detects the format without a file name', () => {
    expect(readTranscript(rollout).format).toBe('codex-rollout-jsonl');
  });

  it('a compacted line replaces the history before it with its replacement history', () => {
    const compacted = [
      rollout,
      line('compacted', {
        message: 'summary',
        replacement_history: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run the tests' }] },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Summary: tests fixed.' }] },
        ],
      }),
      line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'now lint' }] }),
    ].join('\n');
    expect(readCodexRolloutJsonl(compacted).messages).toEqual([
      { role: 'user', content: 'run the tests' },
      { role: 'user', content: 'Summary: tests fixed.' },
      { role: 'user', content: 'now lint' },
    ]);
  });

  it('reports unknown line and item types and cut lines by number, and keeps reading', () => {
    const lines = rollout.split('\n');
    lines.splice(2, 0, line('response_item', { type: 'hologram_call', call_id: 'x' }));
    lines.splice(4, 0, line('telemetry', { a: 1 }));
    lines[7] = lines[7].slice(0, 40);
    const result = readCodexRolloutJsonl(lines.join('\n'));
    expect(result.issues.map(({ line: at, kind, recordType }) => ({ at, kind, recordType }))).toEqual([
      { at: 3, kind: 'unknown-record', recordType: 'hologram_call' },
      { at: 5, kind: 'unknown-record', recordType: 'telemetry' },
      { at: 8, kind: 'unparseable', recordType: undefined },
    ]);
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', content: 'Fixed.' });
  });

  it('reads the older layout: a header line, bare items and record_type state lines', () => {
    const legacy = [
      JSON.stringify({ id: 'old-session', timestamp: '2025-07-01T00:00:00Z', instructions: null }),
      JSON.stringify({ record_type: 'state' }),
      JSON.stringify({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }),
      JSON.stringify({
        type: 'local_shell_call',
        call_id: 'c1',
        status: 'completed',
        action: { type: 'exec', command: ['ls'] },
      }),
      JSON.stringify({ type: 'function_call_output', call_id: 'c1', output: 'README.md' }),
    ].join('\n');
    const result = readTranscript(legacy);
    expect(result.format).toBe('codex-rollout-jsonl');
    expect(result.metadata.sessionId).toBe('old-session');
    expect(result.messages).toEqual([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'local_shell', arguments: '{"type":"exec","command":["ls"]}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'README.md' },
    ]);
  });

  it('throws a typed error when no line is a rollout line', () => {
    expect(() => readCodexRolloutJsonl('{"type":"hologram","payload":{}}')).toThrow(TranscriptFormatError);
    expect(() => readCodexRolloutJsonl('{"type":"hologram","payload":{}}')).toThrow(
      /codex-rollout-jsonl: line 1: no line is a Codex rollout line/,
    );
  });
});
