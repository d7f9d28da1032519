import { describe, expect, it } from 'vitest';
import { FoldSession } from '../../src/index.ts';
import { readGeminiCliChat, readTranscript } from '../../src/transcripts/index.ts';

// Records in the shape Gemini CLI's chat recording writes (~/.gemini/tmp/<project>/chats/session-*.json(l)).
const header = {
  sessionId: '3f1c9a2e-7b2d-4f7a-9d55-0f5e2a1b6c44',
  projectHash: 'a33c3345ed592a7d6c2eb32b6ad11a280e0cafc473b2669402655b56894f5391',
  startTime: '2026-11-30T10:00:00.000Z',
  lastUpdated: '2026-11-30T10:00:00.000Z',
  kind: 'main',
};
const user = { id: 'm1', timestamp: '2026-11-30T10:00:01.000Z', type: 'user', content: [{ text: 'list the files' }] };
const gemini = {
  id: 'm2',
  timestamp: '2026-11-30T10:00:03.000Z',
  type: 'gemini',
  content: 'Listing them.',
  thoughts: [{ subject: 'Plan', description: 'use ls', timestamp: '2026-11-30T10:00:02.000Z' }],
  tokens: { input: 6200, output: 40, cached: 5000, thoughts: 12, tool: 0, total: 6252 },
  model: 'gemini-2.5-pro',
  toolCalls: [
    {
      id: 'run_shell_command-1',
      name: 'run_shell_command',
      args: { command: 'ls' },
      status: 'success',
      timestamp: '2026-11-30T10:00:03.000Z',
      result: [
        {
          functionResponse: {
            id: 'run_shell_command-1',
            name: 'run_shell_command',
            response: { output: 'README.md\nsrc' },
          },
        },
      ],
      displayName: 'Shell',
      resultDisplay: 'README.md\nsrc',
    },
    {
      id: 'read_file-2',
      name: 'read_file',
      args: { absolute_path: '/repo/README.md' },
      status: 'cancelled',
      timestamp: '2026-11-30T10:00:04.000Z',
    },
  ],
};
const info = { id: 'm3', timestamp: '2026-11-30T10:00:05.000Z', type: 'info', content: 'Request cancelled.' };
const answer = {
  id: 'm4',
  timestamp: '2026-11-30T10:00:06.000Z',
  type: 'gemini',
  content: [{ text: 'Two entries.' }],
  tokens: { input: 6400, output: 5, cached: 6200, thoughts: 0, tool: 0, total: 6405 },
  model: 'gemini-2.5-pro',
};

const expected = [
  { role: 'user', parts: [{ text: 'list the files' }] },
  {
    role: 'model',
    parts: [
      { text: 'Listing them.' },
      { functionCall: { id: 'run_shell_command-1', name: 'run_shell_command', args: { command: 'ls' } } },
      { functionCall: { id: 'read_file-2', name: 'read_file', args: { absolute_path: '/repo/README.md' } } },
    ],
  },
  {
    role: 'user',
    parts: [
      {
        functionResponse: {
          id: 'run_shell_command-1',
          name: 'run_shell_command',
          response: { output: 'README.md\nsrc' },
        },
      },
      {
        functionResponse: {
          id: 'read_file-2',
          name: 'read_file',
          response: { error: 'tool call cancelled without a result' },
        },
      },
    ],
  },
  { role: 'model', parts: [{ text: 'Two entries.' }] },
];

describe('Gemini CLI chat files', () => {
  it('reads the JSON form into Gemini contents, tool results as functionResponse turns', () => {
    const result = readTranscript(JSON.stringify({ ...header, messages: [user, gemini, info, answer] }, null, 2), {
      fileName: 'session-2026-11-30T10-00-3f1c9a2e.json',
    });
    expect(result.format).toBe('gemini-cli-json');
    expect(result.dialect).toBe('gemini');
    expect(result.messages).toEqual(expected);
    expect(result.issues).toEqual([]);
    expect(result.metadata).toEqual({
      sessionId: header.sessionId,
      model: 'gemini-2.5-pro',
      lastUsage: {
        inputTokens: 200,
        cacheReadTokens: 6200,
        cacheWriteTokens: 0,
        outputTokens: 5,
        measuredInputTokens: 6400,
      },
      // one call per model turn, in order
      recordedCalls: [
        {
          inputTokens: 1200,
          cacheReadTokens: 5000,
          cacheWriteTokens: 0,
          cacheWriteOneHourTokens: 0,
          outputTokens: 40,
          measuredInputTokens: 6200,
          model: 'gemini-2.5-pro',
          turn: 0,
        },
        {
          inputTokens: 200,
          cacheReadTokens: 6200,
          cacheWriteTokens: 0,
          cacheWriteOneHourTokens: 0,
          outputTokens: 5,
          measuredInputTokens: 6400,
          model: 'gemini-2.5-pro',
          turn: 1,
        },
      ],
    });
    expect(() => new FoldSession({ pressureCeiling: 8_000 }).prepare(result.messages)).not.toThrow();
  });

  it('replays the JSONL form: updates by id, $rewindTo and $set, as the CLI loads it', () => {
    const lines = [
      header,
      user,
      { ...gemini, toolCalls: [] },
      gemini, // the CLI rewrites a record with the same id as its tool calls finish
      { id: 'm9', timestamp: 't', type: 'user', content: 'abandoned prompt' },
      { $rewindTo: 'm9' },
      info,
      answer,
      { $set: { lastUpdated: '2026-11-30T10:00:07.000Z', summary: 'listing files' } },
    ].map((record) => JSON.stringify(record));
    const result = readTranscript(lines.join('\n'));
    expect(result.format).toBe('gemini-cli-jsonl');
    expect(result.messages).toEqual(expected);
    expect(result.issues).toEqual([]);
  });

  it('takes $set.messages over the message records when it is given', () => {
    const lines = [header, user, answer, { $set: { messages: [answer], lastUpdated: 'x' } }].map((record) =>
      JSON.stringify(record),
    );
    expect(readGeminiCliChat(lines.join('\n')).messages).toEqual([
      { role: 'model', parts: [{ text: 'Two entries.' }] },
    ]);
  });

  it('reports unknown message types and cut lines by number', () => {
    const lines = [header, user, { id: 'x', type: 'hologram', content: 'x' }, gemini, info, answer].map((record) =>
      JSON.stringify(record),
    );
    lines[4] = lines[4].slice(0, 30);
    const result = readGeminiCliChat(lines.join('\n'));
    expect(result.issues.map(({ line, kind }) => ({ line, kind }))).toEqual([
      { line: 3, kind: 'unknown-record' },
      { line: 5, kind: 'unparseable' },
    ]);
    expect(result.messages).toEqual(expected);
  });
});
