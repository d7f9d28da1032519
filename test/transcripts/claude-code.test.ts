import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FoldSession } from '../../src/index.ts';
import { readClaudeCodeJsonl, readTranscript, TranscriptFormatError } from '../../src/transcripts/index.ts';

const fixturePath = new URL('../fixtures/claude-code/57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl', import.meta.url);
const fixture = readFileSync(fixturePath, 'utf8');
const fixtureLines = fixture.trimEnd().split('\n');

type Block = { type: string; id?: string; tool_use_id?: string; text?: string };
const blocksOf = (content: unknown): Block[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : (content as Block[]);

describe('Claude Code session JSONL', () => {
  it('reads the real session into alternating Anthropic messages with every tool call answered', () => {
    const result = readTranscript(fixture, { fileName: '57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl' });
    expect(result.format).toBe('claude-code-jsonl');
    expect(result.dialect).toBe('anthropic');
    expect(result.issues).toEqual([]);
    expect(result.metadata).toMatchObject({
      sessionId: '57bb5674-54b1-4ce6-9157-2d341cd9bfc1',
      cwd: '/Users/[USER]',
      model: 'claude-opus-4-5-20251101',
      cliVersion: '2.0.76',
    });
    const roles = result.messages.map((message) => message.role);
    for (let index = 1; index < roles.length; index++) expect(roles[index]).not.toBe(roles[index - 1]);
    expect(result.messages[0]).toEqual({
      role: 'user',
      content: 'this is a tmux term with a footer.  what is different than a normal term',
    });
    const calls = result.messages.flatMap((message) =>
      blocksOf(message.content)
        .filter((block) => block.type === 'tool_use')
        .map((block) => block.id),
    );
    const answered = result.messages.flatMap((message) =>
      blocksOf(message.content)
        .filter((block) => block.type === 'tool_result')
        .map((block) => block.tool_use_id),
    );
    expect(calls).toHaveLength(54);
    expect([...answered].sort()).toEqual([...calls].sort());
  });

  it('detects the format from the records alone, without a file name', () => {
    expect(readTranscript(fixture).format).toBe('claude-code-jsonl');
  });

  it('joins the records of one response into one assistant message, in block order', () => {
    const { messages } = readClaudeCodeJsonl(fixture);
    const records = fixtureLines.map((line) => JSON.parse(line)).filter((record) => record.type === 'assistant');
    const ids = records.map((record) => record.message.id);
    const splitId = ids.find((id, index) => ids.indexOf(id) !== index);
    const blocksOfSplit = records
      .filter((record) => record.message.id === splitId)
      .map((record) => record.message.content[0]);
    expect(blocksOfSplit.length).toBeGreaterThan(1);
    const joined = messages.find(
      (message) =>
        message.role === 'assistant' &&
        JSON.stringify(blocksOf(message.content)[0]) === JSON.stringify(blocksOfSplit[0]),
    );
    expect(joined).toEqual({ role: 'assistant', content: blocksOfSplit });
  });

  it('reports a cut line, an unknown record and an orphan tool result by line number, and reads the rest', () => {
    const damaged = [...fixtureLines];
    const cutAt = damaged.findIndex((line) => line.includes('"type":"assistant"') && line.includes('"tool_use"'));
    const callId = JSON.parse(damaged[cutAt]).message.content[0].id;
    damaged[cutAt] = damaged[cutAt].slice(0, 200) + ' To: [REDACTED_RECIPIENT]';
    damaged.splice(5, 0, JSON.stringify({ type: 'hologram', sessionId: 'x', uuid: 'y' }));
    const result = readTranscript(damaged.join('\n'));
    const resultLine = damaged.findIndex((line) => line.includes(`"tool_use_id":"${callId}"`)) + 1;
    expect(result.issues.map(({ line, kind }) => ({ line, kind }))).toEqual([
      { line: 6, kind: 'unknown-record' },
      { line: cutAt + 2, kind: 'unparseable' },
      { line: resultLine, kind: 'invalid-record' },
    ]);
    expect(result.issues[0].recordType).toBe('hologram');
    expect(result.issues[2].detail).toContain(callId);
    const full = readTranscript(fixture).messages;
    expect(result.messages.length).toBeGreaterThan(full.length - 3);
    expect(() => new FoldSession({ pressureCeiling: 8_000 }).prepare(result.messages)).not.toThrow();
  });

  it('leaves out sidechain records, meta caveats and Claude Code’s own synthetic notices', () => {
    const base = { sessionId: 's', cwd: '/w', uuid: 'u', parentUuid: null };
    const text = [
      { ...base, type: 'user', message: { role: 'user', content: 'hello' } },
      { ...base, type: 'user', isMeta: true, message: { role: 'user', content: 'Caveat: local commands' } },
      {
        ...base,
        type: 'assistant',
        isSidechain: true,
        message: { role: 'assistant', content: [{ type: 'text', text: 'subagent' }] },
      },
      {
        ...base,
        type: 'assistant',
        message: { model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text: 'API Error' }] },
      },
      {
        ...base,
        type: 'assistant',
        message: {
          model: 'm',
          role: 'assistant',
          content: [{ type: 'text', text: 'hi' }],
          usage: { input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 7 },
        },
      },
      { type: 'summary', summary: 'greeting', leafUuid: 'u' },
      { type: 'last-prompt', lastPrompt: 'hello', sessionId: 's' },
    ]
      .map((record) => JSON.stringify(record))
      .join('\n');
    const result = readClaudeCodeJsonl(text);
    expect(result.messages).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
    ]);
    expect(result.issues).toEqual([]);
    expect(result.metadata.lastUsage).toEqual({
      inputTokens: 3,
      cacheReadTokens: 100,
      cacheWriteTokens: 20,
      outputTokens: 7,
      measuredInputTokens: 123,
    });
  });

  it('throws a typed error naming the line when nothing in the file is readable', () => {
    expect(() => readClaudeCodeJsonl('not json\nstill not')).toThrow(TranscriptFormatError);
    expect(() => readClaudeCodeJsonl('not json\nstill not')).toThrow(/line 1: no line parses as JSON/);
    expect(() => readClaudeCodeJsonl('{"type":"hologram"}')).toThrow(/line 1: no record is a Claude Code record/);
    expect(() => readClaudeCodeJsonl('\n\n')).toThrow(/the text is empty/);
  });
});
