// A synthetic Claude Code session JSONL of a given size, written line by line: a coding agent that
// reads, greps and runs commands, each tool result a few kilobytes of code-like text with its own
// identifiers, in the record shape Claude Code writes (uuid / parentUuid chain, one assistant record
// per response, one user record per tool result). Deterministic: same size, same bytes.
import { createWriteStream } from 'node:fs';

const SESSION_ID = '5e55a0c1-7d2b-4f3e-9a61-0b1c2d3e4f50';
const MODEL = 'claude-sonnet-4-5-20250929';
const TOOLS = ['Read', 'Grep', 'Bash'] as const;
/** Distinct files whose functions the tool outputs show. */
const VOCABULARY_FILES = 400;

/** A small deterministic generator (mulberry32), so the file is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const uuid = (n: number) => `${SESSION_ID.slice(0, 24)}${n.toString(16).padStart(12, '0')}`;
const time = (n: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, 0) + n * 7_000).toISOString();

function toolOutput(step: number, next: () => number): string {
  const lines: string[] = [];
  const count = 30 + Math.floor(next() * 70);
  for (let line = 0; line < count; line++) {
    // a repository has a bounded vocabulary: the same functions come back as files are read again
    const name = `handle_${['request', 'payment', 'retry', 'session', 'cache'][line % 5]}_${step % VOCABULARY_FILES}_${line}`;
    lines.push(
      `  ${String(line + 1).padStart(4)}  export function ${name}(input: Payload${step % 17}): Result { return run(input, ${Math.floor(next() * 1000)}); } // src/module_${step % 97}/part_${line % 13}.ts`,
    );
  }
  return lines.join('\n');
}

/** Writes about `bytes` bytes to `path`; resolves with the lines and model calls written. */
export async function writeSyntheticClaudeSession(
  path: string,
  bytes: number,
): Promise<{ lines: number; calls: number; bytes: number }> {
  const out = createWriteStream(path);
  const next = random(20261101);
  let written = 0;
  let lines = 0;
  let n = 0;
  let parent: string | null = null;
  const write = async (record: Record<string, unknown>) => {
    const text = `${JSON.stringify(record)}\n`;
    written += Buffer.byteLength(text);
    lines++;
    if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  };
  const base = () => ({
    parentUuid: parent,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/dev/shop',
    sessionId: SESSION_ID,
    version: '2.0.76',
    gitBranch: 'main',
  });
  await write({
    type: 'file-history-snapshot',
    messageId: uuid(0),
    snapshot: { messageId: uuid(0), trackedFileBackups: {}, timestamp: time(0) },
    isSnapshotUpdate: false,
  });
  const user = (content: unknown) => {
    const id = uuid(++n);
    const record = { ...base(), type: 'user', message: { role: 'user', content }, uuid: id, timestamp: time(n) };
    parent = id;
    return record;
  };
  await write(user('The checkout service drops payments under load. Find why, fix it, and keep the tests green.'));
  let calls = 0;
  for (let step = 0; written < bytes; step++) {
    const tool = TOOLS[step % TOOLS.length];
    const callId = `toolu_${step.toString(36).padStart(8, '0')}`;
    const input =
      tool === 'Read'
        ? { file_path: `/home/dev/shop/src/module_${step % 97}/part_${step % 13}.ts` }
        : tool === 'Grep'
          ? { pattern: `handle_retry_${step}`, path: 'src' }
          : { command: `npm test -- module_${step % 97}` };
    const id = uuid(++n);
    await write({
      ...base(),
      type: 'assistant',
      message: {
        model: MODEL,
        id: `msg_${step.toString(36)}`,
        type: 'message',
        role: 'assistant',
        content: [
          {
            type: 'text',
            text: `Step ${step}: checking module_${step % 97} for the retry path${step >= 25 ? `, as handle_retry_${(step - 25) % VOCABULARY_FILES}_7 does` : ''}.`,
          },
          { type: 'tool_use', id: callId, name: tool, input },
        ],
        stop_reason: 'tool_use',
        usage: {
          input_tokens: 12,
          cache_creation_input_tokens: 900,
          cache_read_input_tokens: 40_000,
          output_tokens: 80,
        },
      },
      uuid: id,
      timestamp: time(n),
    });
    parent = id;
    calls++;
    await write(user([{ type: 'tool_result', tool_use_id: callId, content: toolOutput(step, next) }]));
    if (step % 50 === 49) await write(user(`Keep going; remember the failing case is order ${step * 7919}.`));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { lines, calls, bytes: written };
}
