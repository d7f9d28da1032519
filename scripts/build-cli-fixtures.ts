// Writes the Codex CLI and Gemini CLI fixtures of test/fixtures/cli/ from sessions already in the
// repository (deterministic: same input, same bytes). See test/fixtures/README.md.
//
//   npx tsx scripts/build-cli-fixtures.ts
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

type Json = Record<string, unknown>;
const ROOT = join(import.meta.dirname, '..');
const read = (path: string) =>
  JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as { messages: Json[]; model?: string };
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(ROOT, path)), { recursive: true });
  writeFileSync(join(ROOT, path), text);
};
const time = (second: number) => new Date(Date.UTC(2026, 10, 30, 10, 0, 0) + second * 1000).toISOString();

/** An OpenAI chat session as a Codex CLI rollout: session_meta, turn_context, then one response_item per message, call and output. */
function codexRollout(messages: Json[], model: string): string {
  const lines: Json[] = [];
  let second = 0;
  const push = (type: string, payload: Json) => lines.push({ timestamp: time(second++), type, payload });
  push('session_meta', {
    id: '019ad4c2-7b10-7a3e-9c41-2f6d8e0b5a17',
    timestamp: time(0),
    cwd: '/home/user/airline',
    originator: 'codex_cli_rs',
    cli_version: '0.63.0',
    instructions: null,
    source: 'cli',
  });
  push('turn_context', {
    cwd: '/home/user/airline',
    approval_policy: 'on-request',
    model,
    effort: 'medium',
    summary: 'auto',
  });
  for (const message of messages) {
    const text = typeof message.content === 'string' ? message.content : '';
    if (message.role === 'system')
      push('response_item', { type: 'message', role: 'developer', content: [{ type: 'input_text', text }] });
    else if (message.role === 'user')
      push('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
    else if (message.role === 'assistant') {
      if (text !== '')
        push('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
      for (const call of (message.tool_calls as Json[] | undefined) ?? []) {
        const fn = call.function as Json;
        push('response_item', { type: 'function_call', name: fn.name, arguments: fn.arguments, call_id: call.id });
      }
    } else if (message.role === 'tool')
      push('response_item', { type: 'function_call_output', call_id: message.tool_call_id, output: text });
  }
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

/** Gemini contents as a Gemini CLI chat recording: `user` and `gemini` records, tool calls with their results inline. */
function geminiChat(contents: Json[], model: string): string {
  const records: Json[] = [];
  let id = 0;
  for (let index = 0; index < contents.length; index++) {
    const turn = contents[index];
    const parts = turn.parts as Json[];
    if (turn.role === 'user' && parts.every((part) => part.functionResponse === undefined)) {
      records.push({ id: `m${++id}`, timestamp: time(index), type: 'user', content: parts });
    } else if (turn.role === 'model') {
      const responses = ((contents[index + 1]?.parts as Json[] | undefined) ?? []).filter(
        (part) => part.functionResponse !== undefined,
      );
      const calls = parts
        .filter((part) => part.functionCall !== undefined)
        .map((part, callIndex) => {
          const call = part.functionCall as Json;
          const callId = `${String(call.name)}-${index}-${callIndex}`;
          const response = responses[callIndex]?.functionResponse as Json | undefined;
          return {
            id: callId,
            name: call.name,
            args: call.args,
            result: response
              ? [{ functionResponse: { id: callId, name: call.name, response: response.response } }]
              : [],
            status: 'success',
            timestamp: time(index),
          };
        });
      const text = parts
        .filter((part) => typeof part.text === 'string')
        .map((part) => part.text)
        .join('\n');
      records.push({
        id: `m${++id}`,
        timestamp: time(index),
        type: 'gemini',
        content: text,
        model,
        toolCalls: calls,
        tokens: { input: 0, output: 0, cached: 0, thoughts: 0, tool: 0, total: 0 },
      });
    }
  }
  const chat = {
    sessionId: '6f1c2b9e-4d3a-4e8f-9b7c-1a2d3e4f5a6b',
    projectHash: 'c0ffee'.padEnd(64, '0'),
    startTime: time(0),
    lastUpdated: time(contents.length),
    messages: records,
  };
  return `${JSON.stringify(chat, null, 2)}\n`;
}

const tau = read('test/fixtures/sessions/tau-airline-gpt-4o-task02-trial1.json');
write(
  'test/fixtures/cli/codex/rollout-2026-11-30T10-00-00-019ad4c2-7b10-7a3e-9c41-2f6d8e0b5a17.jsonl',
  codexRollout(tau.messages, 'gpt-4o'),
);
const outage = read('test/fixtures/synthetic/outage-gemini.json');
write('test/fixtures/cli/gemini/session-2026-11-30T10-00-6f1c2b9e.json', geminiChat(outage.messages, 'gemini-2.5-pro'));
