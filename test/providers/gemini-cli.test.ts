import { describe, expect, it } from 'vitest';
import { FoldSession } from '../../src/index.ts';
import { mergeAdjacentRoles } from '../../src/transcripts/index.ts';
import { latestGeminiCliUsage, rewriteGeminiCliChat } from '../../src/providers/gemini-cli/index.ts';
import { readGeminiCliChat } from '../../src/transcripts/index.ts';

const now = () => 1_764_583_200_000;
const header = {
  sessionId: '3f1c9a2e-7b2d-4f7a-9d55-0f5e2a1b6c44',
  projectHash: 'a33c3345ed592a7d6c2eb32b6ad11a280e0cafc473b2669402655b56894f5391',
  startTime: '2026-11-30T10:00:00.000Z',
  lastUpdated: '2026-11-30T10:00:00.000Z',
  kind: 'main',
};

/** A Gemini CLI chat recording (JSONL layout) with `turns` shell calls. */
function chatJsonl(turns: number): string {
  const lines: unknown[] = [header];
  for (let turn = 0; turn < turns; turn++) {
    lines.push({
      id: `u${turn}`,
      timestamp: '2026-11-30T10:00:01.000Z',
      type: 'user',
      content: [{ text: `step ${turn}: check config-${turn}.yaml` }],
    });
    const output = Array.from({ length: 50 }, (_, line) => `key_${turn}_${line}: value ${line * 7}`).join('\n');
    lines.push({
      id: `g${turn}`,
      timestamp: '2026-11-30T10:00:02.000Z',
      type: 'gemini',
      content: `Reading config ${turn}.`,
      model: 'gemini-2.5-pro',
      tokens: {
        input: 1000 + turn * 900,
        output: 20,
        cached: 800 + turn * 850,
        thoughts: 0,
        tool: 0,
        total: 1020 + turn * 900,
      },
      toolCalls: [
        {
          id: `read_file-${turn}`,
          name: 'read_file',
          args: { absolute_path: `/repo/config-${turn}.yaml` },
          status: 'success',
          timestamp: '2026-11-30T10:00:02.000Z',
          result: [{ functionResponse: { id: `read_file-${turn}`, name: 'read_file', response: { output } } }],
        },
      ],
    });
  }
  lines.push({ $set: { lastUpdated: '2026-11-30T10:05:00.000Z' } });
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}

describe('Gemini CLI pack', () => {
  it('a rewritten JSONL chat keeps its header verbatim and reads back into the same rows', () => {
    const original = chatJsonl(4);
    const { messages } = readGeminiCliChat(original);
    const rewritten = rewriteGeminiCliChat({ original, contents: messages, now });
    const lines = rewritten.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(original.split('\n')[0]);
    const set = JSON.parse(lines[1]).$set;
    expect(set.lastUpdated).toBe('2025-12-01T10:00:00.000Z');
    expect(set.messages.map((record: { type: string }) => record.type)).toEqual([
      'user',
      'gemini',
      'user',
      'gemini',
      'user',
      'gemini',
      'user',
      'gemini',
    ]);
    const reread = readGeminiCliChat(rewritten);
    expect(reread.format).toBe('gemini-cli-jsonl');
    expect(reread.issues).toEqual([]);
    expect(reread.messages).toEqual(messages);
    expect(reread.metadata.sessionId).toBe(header.sessionId);
  });

  it('parse → fold → rewrite → parse: the folded view survives the file', () => {
    const original = chatJsonl(30);
    const { messages } = readGeminiCliChat(original);
    const view = new FoldSession({ pressureCeiling: 6_000 }).prepare(messages);
    expect(view.foldedRange).not.toBeNull();
    const rewritten = rewriteGeminiCliChat({ original, contents: view.messages, now });
    const reread = readGeminiCliChat(rewritten);
    // Adjacent same-role contents (the raw head and the first band) come back joined, as the CLI sends them.
    expect(reread.messages).toEqual(
      mergeAdjacentRoles(
        view.messages.map((content) => ({ role: content.role, parts: content.parts })),
        'parts',
      ),
    );
    expect(reread.messages.length).toBeGreaterThan(2);
    expect(rewritten.length).toBeLessThan(original.length / 2);
  });

  it('rewrites the older JSON layout in place, messages and lastUpdated replaced', () => {
    const jsonl = readGeminiCliChat(chatJsonl(2));
    const original = JSON.stringify(
      {
        ...header,
        messages: chatJsonl(2)
          .trimEnd()
          .split('\n')
          .slice(1, -1)
          .map((line) => JSON.parse(line)),
      },
      null,
      2,
    );
    const rewritten = rewriteGeminiCliChat({ original, contents: jsonl.messages, now });
    const parsed = JSON.parse(rewritten);
    expect(parsed).toMatchObject({
      sessionId: header.sessionId,
      projectHash: header.projectHash,
      startTime: header.startTime,
      lastUpdated: '2025-12-01T10:00:00.000Z',
    });
    expect(readGeminiCliChat(rewritten).messages).toEqual(jsonl.messages);
  });

  it('reads the latest measured tokens from the file', () => {
    expect(latestGeminiCliUsage(chatJsonl(3))).toEqual({
      inputTokens: 300,
      cacheReadTokens: 2500,
      cacheWriteTokens: 0,
      outputTokens: 20,
      measuredInputTokens: 2800,
    });
    expect(
      latestGeminiCliUsage(
        [header, { id: 'u', type: 'user', content: 'hi', timestamp: 't' }]
          .map((line) => JSON.stringify(line))
          .join('\n'),
      ),
    ).toBeNull();
  });
});
