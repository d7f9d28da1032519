/**
 * Requests shaped like the real agents' (see ../shared/CLIENTS.md): the whole history every call,
 * mid-size tool outputs (24–47 KB; scale them for smaller), Claude Code's three cache marks, signed thinking blocks, its
 * session id in metadata.user_id; Codex's Responses input with encrypted reasoning items.
 */

/** Deterministic tool output of 24–47 KB for step `step` (times `scale`). */
export function toolOutput(step: number, scale = 1): string {
  const lines = Math.max(1, Math.round((350 + ((step * 37) % 380)) * scale));
  let text = '';
  for (let line = 1; line <= lines; line++)
    text += `${String(line).padStart(4, ' ')}  export const value_${step}_${line} = ${(line * 7919 + step) % 100_003}; // src/mod-${step}/part-${line % 13}.ts\n`;
  return text;
}

export const CLAUDE_SYSTEM = [
  { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.328; cc_entrypoint=sdk-cli;' },
  { type: 'text', text: 'You are Claude Code, an interactive CLI tool.', cache_control: { type: 'ephemeral' } },
  {
    type: 'text',
    text: `You help with software engineering tasks.\n${'Follow the repository conventions. '.repeat(40)}`,
    cache_control: { type: 'ephemeral' },
  },
];

export const CLAUDE_TOOLS = ['Bash', 'Read', 'Edit', 'Grep', 'Glob'].map((name) => ({
  name,
  description: `${name} tool: ${'does what it says. '.repeat(12)}`,
  input_schema: {
    type: 'object',
    properties: { command: { type: 'string', description: 'what to run' } },
    required: ['command'],
  },
}));

/** Claude Code's request at call `calls` (1-based): the task, then `calls - 1` finished tool steps. */
export function claudeCodeBody(
  calls: number,
  sessionId = '3f6c1c1e-0000-4000-8000-000000000001',
  outputScale = 1,
): Record<string, unknown> {
  const messages: Array<{ role: string; content: Array<Record<string, unknown>> }> = [
    {
      role: 'user',
      content: [
        { type: 'text', text: '<system-reminder>cwd: /work/project, platform: linux</system-reminder>' },
        { type: 'text', text: 'Read every module under src/ and list the exported values of each.' },
      ],
    },
  ];
  for (let step = 1; step < calls; step++) {
    messages.push({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: '', signature: `EqQBCkYIBxgCKkBsig${step}${'A'.repeat(60)}==` },
        { type: 'text', text: `Reading module ${step}.` },
        {
          type: 'tool_use',
          id: `toolu_${String(step).padStart(4, '0')}`,
          name: 'Bash',
          input: { command: `cat src/mod-${step}/index.ts` },
        },
      ],
    });
    messages.push({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: `toolu_${String(step).padStart(4, '0')}`,
          content: toolOutput(step, outputScale),
        },
      ],
    });
  }
  const last = messages[messages.length - 1].content;
  last[last.length - 1] = { ...last[last.length - 1], cache_control: { type: 'ephemeral' } };
  return {
    model: 'claude-sonnet-4-5-20250929',
    max_tokens: 32_000,
    stream: true,
    system: CLAUDE_SYSTEM,
    tools: CLAUDE_TOOLS,
    messages,
    metadata: { user_id: JSON.stringify({ device_id: 'dev', account_uuid: '', session_id: sessionId }) },
    thinking: { type: 'adaptive' },
  };
}

export const CLAUDE_HEADERS = {
  'content-type': 'application/json',
  'x-api-key': 'sk-test-not-a-secret',
  'anthropic-version': '2023-06-01',
  'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27',
  'user-agent': 'claude-cli/2.1.328 (external, sdk-cli)',
  'x-app': 'cli',
  'x-stainless-lang': 'js',
};

/** Codex's Responses request at call `calls`: reasoning items with encrypted content, function calls and outputs. */
export function codexBody(calls: number): Record<string, unknown> {
  const input: Array<Record<string, unknown>> = [
    {
      type: 'message',
      role: 'developer',
      content: [{ type: 'input_text', text: '<permissions>sandbox: none</permissions>' }],
    },
    {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'List the exported values of every module.' }],
    },
  ];
  for (let step = 1; step < calls; step++) {
    input.push({
      type: 'reasoning',
      id: `rs_${step}`,
      summary: [],
      encrypted_content: `gAAAAB${step}${'x'.repeat(80)}`,
    });
    input.push({
      type: 'function_call',
      id: `fc_${step}`,
      call_id: `call_${step}`,
      name: 'shell',
      arguments: JSON.stringify({ command: ['cat', `src/mod-${step}/index.ts`] }),
    });
    input.push({ type: 'function_call_output', call_id: `call_${step}`, output: toolOutput(step) });
  }
  return {
    model: 'gpt-5-codex',
    instructions: `You are Codex.\n${'Be precise. '.repeat(50)}`,
    input,
    tools: [
      { type: 'function', name: 'shell', description: 'run a command', parameters: { type: 'object', properties: {} } },
    ],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    reasoning: { effort: 'medium' },
    store: false,
    stream: true,
    include: ['reasoning.encrypted_content'],
  };
}
