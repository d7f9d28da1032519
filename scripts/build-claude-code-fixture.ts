// Run: npx tsx scripts/build-claude-code-fixture.ts ../shared/corpus/dev2/claudecode-native-mclaude-57bb5674.json
// Turns a dev2 Claude Code session (converted to OpenAI chat by the corpus) back into the record
// shape Claude Code writes to ~/.claude/projects: one record per content block of a response, one
// user record per tool result, linked by uuid / parentUuid. Written on its own, apart from the
// claude-cli pack, so the pack's writer is tested against an independent file.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface CorpusMessage {
  role: string;
  content: string | null;
  reasoning_content?: string;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

const input = process.argv[2];
if (input === undefined) throw new Error('usage: build-claude-code-fixture.ts <dev2 session json>');
const session = JSON.parse(readFileSync(input, 'utf8')) as { source: string; model: string; messages: CorpusMessage[] };
const sessionUuid = /Archives\/([0-9a-f-]{36})\.jsonl/.exec(session.source)?.[1];
if (sessionUuid === undefined) throw new Error(`no session uuid in source ${session.source}`);

// Deterministic uuids and timestamps: the fixture must rebuild byte for byte.
let counter = 0;
const nextUuid = (): string => {
  counter++;
  const hex = (sessionUuid.replace(/-/g, '') + counter.toString(16).padStart(12, '0')).slice(-32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};
const start = Date.parse('2026-01-03T10:00:00.000Z');
const timestamp = (): string => new Date(start + counter * 1_000).toISOString();

const base = {
  isSidechain: false,
  userType: 'external',
  cwd: '/Users/[USER]',
  sessionId: sessionUuid,
  version: '2.0.76',
  gitBranch: '',
};
const lines: string[] = [
  JSON.stringify({
    type: 'file-history-snapshot',
    messageId: nextUuid(),
    snapshot: { messageId: 'snapshot', trackedFileBackups: {}, timestamp: timestamp() },
    isSnapshotUpdate: false,
  }),
];
let parent: string | null = null;
const push = (record: Record<string, unknown>): void => {
  const uuid = nextUuid();
  lines.push(JSON.stringify({ parentUuid: parent, ...base, ...record, uuid, timestamp: timestamp() }));
  parent = uuid;
};

let response = 0;
for (const message of session.messages) {
  if (message.role === 'user') push({ type: 'user', message: { role: 'user', content: message.content ?? '' } });
  else if (message.role === 'tool')
    push({
      type: 'user',
      message: {
        role: 'user',
        content: [{ tool_use_id: message.tool_call_id, type: 'tool_result', content: message.content ?? '' }],
      },
    });
  else if (message.role === 'assistant') {
    response++;
    const id = `msg_fixture${String(response).padStart(4, '0')}`;
    const blocks: unknown[] = [];
    if (message.reasoning_content)
      blocks.push({ type: 'thinking', thinking: message.reasoning_content, signature: '' });
    if (message.content) blocks.push({ type: 'text', text: message.content });
    for (const call of message.tool_calls ?? [])
      blocks.push({
        type: 'tool_use',
        id: call.id,
        name: call.function.name,
        input: JSON.parse(call.function.arguments),
      });
    blocks.forEach((block, index) => {
      const last = index === blocks.length - 1;
      push({
        type: 'assistant',
        message: {
          model: session.model,
          id,
          type: 'message',
          role: 'assistant',
          content: [block],
          stop_reason: last ? ((block as { type: string }).type === 'tool_use' ? 'tool_use' : 'end_turn') : null,
          stop_sequence: null,
        },
      });
    });
  }
}

const out = join(fileURLToPath(new URL('../test/fixtures/claude-code/', import.meta.url)), `${sessionUuid}.jsonl`);
writeFileSync(out, lines.join('\n') + '\n');
console.log(`${basename(out)}: ${lines.length} records`);
