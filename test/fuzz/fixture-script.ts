/**
 * A real OpenAI-format session (test/fixtures/sessions) read back into the dialect-free script of
 * test/helpers/canonical.ts, so `toDialect` can render it in any dialect: the fuzz suite mutates
 * real sessions in all three.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  CanonicalCall,
  CanonicalResult,
  CanonicalScript,
  CanonicalStep,
  CanonicalTurn,
} from '../helpers/canonical.ts';

export const FIXTURE_DIR = join(import.meta.dirname, '..', 'fixtures', 'sessions');

type OpenAiMessage = {
  role?: string;
  content?: unknown;
  tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
  tool_call_id?: string;
  reasoning_content?: unknown;
};

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content
          .map((part) => (typeof part === 'string' ? part : typeof part?.text === 'string' ? part.text : ''))
          .join('\n')
      : '';

function parseArguments(raw: string | undefined): Record<string, unknown> {
  try {
    const value = JSON.parse(raw ?? '{}');
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : { input: value };
  } catch {
    return { input: raw ?? '' };
  }
}

/** The session's messages as a script: system prompt, user turns, assistant steps with their results. */
export function scriptOfOpenAi(messages: readonly OpenAiMessage[]): CanonicalScript {
  let system = '';
  const turns: Array<{ instruction: string; steps: CanonicalStep[]; reply?: string }> = [];
  let n = 0;
  const turn = () =>
    turns[turns.length - 1] ?? (turns.push({ instruction: '(continue)', steps: [] }), turns[turns.length - 1]);
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    const text = textOf(message.content);
    if (message.role === 'system' || message.role === 'developer') system = system ? `${system}\n${text}` : text;
    else if (message.role === 'user') turns.push({ instruction: text || '(empty)', steps: [] });
    else if (message.role === 'assistant') {
      const calls: CanonicalCall[] = (message.tool_calls ?? []).map((call) => ({
        id: `${(call.id ?? 'x').replace(/[^\w]/g, '')}${n++}`,
        name: call.function?.name ?? 'tool',
        args: parseArguments(call.function?.arguments),
      }));
      const results: CanonicalResult[] = [];
      for (let k = 0; k < calls.length && messages[i + 1]?.role === 'tool'; k++)
        results.push({ text: textOf(messages[++i].content), isError: false });
      const current = turn();
      const thinking =
        typeof message.reasoning_content === 'string' && message.reasoning_content
          ? { thinking: message.reasoning_content }
          : {};
      if (!calls.length && (i + 1 >= messages.length || messages[i + 1].role === 'user'))
        current.reply = text || '(done)';
      else
        current.steps.push({
          ...thinking,
          ...(text || !calls.length ? { text: text || '(thinking)' } : {}),
          calls: calls.slice(0, results.length || calls.length),
          results,
        });
    }
  }
  return { system, turns: turns as CanonicalTurn[] };
}

export interface FixtureSession {
  readonly id: string;
  readonly script: CanonicalScript;
}

export function readFixtureSessions(dir = FIXTURE_DIR): FixtureSession[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const parsed = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { id?: string; messages: OpenAiMessage[] };
      return { id: parsed.id ?? file, script: scriptOfOpenAi(parsed.messages) };
    });
}
