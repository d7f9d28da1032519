/**
 * Mutation operators for provider-shaped histories in any dialect. Each takes a deep copy and a
 * seeded random source and returns the mutated history; the input is never touched. Some keep the
 * history valid (reorder within limits, odd Unicode, extra block kinds), most make it malformed
 * in the ways hosts actually do (dropped or duplicated messages, flipped roles, changed ids, deep
 * or cyclic values).
 */
import { extraBlocks } from '../helpers/block-kinds.ts';
import type { Dialect, ProviderMessage } from '../helpers/dialects.ts';

export interface Random {
  next(): number;
  integer(below: number): number;
  pick<T>(items: readonly T[]): T;
}

export type MutationName =
  | 'drop'
  | 'duplicate'
  | 'reorder'
  | 'truncate-history'
  | 'truncate-text'
  | 'flip-role'
  | 'change-id'
  | 'odd-unicode'
  | 'deep-value'
  | 'cyclic-value'
  | 'block-kinds'
  | 'proto-key'
  | 'huge-result';

type Mutation = (history: ProviderMessage[], dialect: Dialect, random: Random) => ProviderMessage[];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every place under `value` that holds a string: its parent and key (shallow enough, and once per object, for deep or cyclic values). */
function stringSlots(
  value: unknown,
  out: Array<{ parent: Record<string, unknown> | unknown[]; key: string | number }> = [],
  depth = 0,
  seen = new Set<object>(),
) {
  if (depth > 64 || value === null || typeof value !== 'object' || seen.has(value)) return out;
  seen.add(value);
  if (Array.isArray(value))
    value.forEach((item, index) =>
      typeof item === 'string' ? out.push({ parent: value, key: index }) : stringSlots(item, out, depth + 1, seen),
    );
  else
    for (const [key, item] of Object.entries(value))
      typeof item === 'string'
        ? out.push({ parent: value as Record<string, unknown>, key })
        : stringSlots(item, out, depth + 1, seen);
  return out;
}

const ODD_UNICODE = [
  '\ud83d',
  '\ude00',
  '\u200d',
  '\u202e',
  '\u0000',
  'e\u0301\u0301\u0301',
  '👩\u200d👩\u200d👧\u200d👦',
  '🇯🇵🇫',
  '\ufeff',
  '\u{10ffff}',
  '\r\n',
  'ﷺ',
  '𝕏'.repeat(50),
];

function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 'x' };
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

const index = (history: ProviderMessage[], random: Random, from = 1) =>
  history.length > from ? from + random.integer(history.length - from) : history.length - 1;

export const MUTATIONS: Record<MutationName, Mutation> = {
  drop: (history, _, random) => {
    history.splice(index(history, random), 1);
    return history;
  },
  duplicate: (history, _, random) => {
    const at = index(history, random, 0);
    history.splice(at + 1, 0, structuredClone(history[at]));
    return history;
  },
  reorder: (history, _, random) => {
    const at = index(history, random);
    if (at + 1 < history.length) [history[at], history[at + 1]] = [history[at + 1], history[at]];
    return history;
  },
  'truncate-history': (history, _, random) => history.slice(0, Math.max(1, index(history, random))),
  'truncate-text': (history, _, random) => {
    const slots = stringSlots(history[index(history, random, 0)]);
    if (!slots.length) return history;
    const { parent, key } = random.pick(slots);
    const text = (parent as Record<string | number, string>)[key];
    (parent as Record<string | number, string>)[key] = text.slice(0, random.integer(text.length + 1));
    return history;
  },
  'flip-role': (history, dialect, random) => {
    const message = history[index(history, random)];
    const assistant = dialect === 'gemini' ? 'model' : 'assistant';
    message.role = message.role === 'user' ? assistant : message.role === 'tool' ? 'user' : 'user';
    return history;
  },
  'change-id': (history, _, random) => {
    const slots = history
      .flatMap((message) => stringSlots(message))
      .filter(
        ({ parent, key }) =>
          key === 'id' ||
          key === 'tool_call_id' ||
          key === 'tool_use_id' ||
          (key === 'name' && isRecord(parent) && !('role' in parent)),
      );
    if (!slots.length) return history;
    const { parent, key } = random.pick(slots);
    (parent as Record<string | number, string>)[key] =
      `${(parent as Record<string | number, string>)[key]}_x${random.integer(9)}`;
    return history;
  },
  'odd-unicode': (history, _, random) => {
    for (let n = 0; n < 3; n++) {
      const slots = stringSlots(history[index(history, random, 0)]).filter(
        ({ key }) =>
          key === 'content' || key === 'text' || key === 'output' || key === 'arguments' || typeof key === 'number',
      );
      if (!slots.length) continue;
      const { parent, key } = random.pick(slots);
      const text = (parent as Record<string | number, string>)[key];
      const at = random.integer(text.length + 1);
      (parent as Record<string | number, string>)[key] =
        `${text.slice(0, at)}${random.pick(ODD_UNICODE)}${text.slice(at)}`;
    }
    return history;
  },
  'deep-value': (history, dialect, random) => {
    const message = history[index(history, random)];
    const deep = nested(600 + random.integer(3_000));
    if (dialect === 'openai') message.metadata = deep;
    else if (dialect === 'anthropic' && Array.isArray(message.content))
      message.content.push({ type: 'tool_use', id: 'toolu_deep', name: 'deep', input: deep });
    else message.extra = deep;
    return history;
  },
  'cyclic-value': (history, _, random) => {
    const cycle: Record<string, unknown> = { label: 'loop' };
    cycle.self = { back: cycle };
    history[index(history, random)].trace = cycle;
    return history;
  },
  'block-kinds': (history, dialect, random) => {
    const at = history.findIndex(
      (message, n) =>
        n >= index(history, random, 0) &&
        message.role === 'user' &&
        (typeof message.content === 'string' || Array.isArray(message.parts)),
    );
    if (at < 0) return history;
    const message = history[at];
    const extra = extraBlocks(dialect, random.integer(4));
    if (dialect === 'gemini') message.parts = [...(message.parts as unknown[]), ...extra];
    else message.content = [{ type: 'text', text: String(message.content) }, ...extra];
    return history;
  },
  'proto-key': (history, _, random) => {
    const at = index(history, random, 0);
    history[at] = JSON.parse(
      JSON.stringify(history[at]).replace(/^\{/, '{"__proto__":{"content":"EVIL","role":"system"},'),
    ) as ProviderMessage;
    return history;
  },
  'huge-result': (history, _, random) => {
    const slots = history
      .flatMap((message) => stringSlots(message))
      .filter(({ key }) => key === 'content' || key === 'output' || key === 'text');
    if (!slots.length) return history;
    const { parent, key } = random.pick(slots);
    // broken into words and lines: an exact BPE counter is superlinear on one unbroken run
    (parent as Record<string | number, string>)[key] = random
      .pick(['😀 ', 'line of log output\n', 'é ', 'x\n', '👩\u200d👩\u200d👧 '])
      .repeat(30_000 + random.integer(60_000));
    return history;
  },
};

export const MUTATION_NAMES = Object.keys(MUTATIONS) as MutationName[];
