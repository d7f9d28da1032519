import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FoldSession } from '../../src/index.ts';
import {
  buildClaudeCodeSession,
  claudeCodeRows,
  claudeProjectDirectoryName,
  claudeSessionFilePath,
  claudeStreamUserLine,
  readClaudeStreamLine,
} from '../../src/providers/claude-cli/index.ts';
import { readClaudeCodeJsonl, readTranscript } from '../../src/transcripts/index.ts';

const fixture = readFileSync(
  new URL('../fixtures/claude-code/57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl', import.meta.url),
  'utf8',
);
const sessionId = '57bb5674-54b1-4ce6-9157-2d341cd9bfc1';
const now = () => 1_764_583_200_000;

describe('Claude Code pack', () => {
  it('names the project directory by replacing every non-alphanumeric character with -', () => {
    expect(claudeProjectDirectoryName('/home/alex/code/pedicab512')).toBe('-home-alex-code-pedicab512');
    expect(claudeProjectDirectoryName('/Users/me/my.project_2 (copy)')).toBe('-Users-me-my-project-2--copy-');
    expect(claudeSessionFilePath({ claudeHome: '/home/alex/.claude/', cwd: '/w/x', sessionId: 'abc' })).toBe(
      '/home/alex/.claude/projects/-w-x/abc.jsonl',
    );
  });

  it('a session written from rows parses back into the same rows', () => {
    const { messages, metadata } = readClaudeCodeJsonl(fixture);
    const written = buildClaudeCodeSession({ messages, sessionId, cwd: metadata.cwd!, model: metadata.model, now });
    expect(written.rows).toEqual(messages);
    const reread = readClaudeCodeJsonl(written.text);
    expect(reread.messages).toEqual(messages);
    expect(reread.issues).toEqual([]);
    expect(reread.metadata).toMatchObject({ sessionId, cwd: '/Users/[USER]', model: 'claude-opus-4-5-20251101' });
  });

  it('links one chain by uuid / parentUuid, stamps session and cwd, closes with last-prompt, and is deterministic', () => {
    const { messages } = readClaudeCodeJsonl(fixture);
    const written = buildClaudeCodeSession({ messages, sessionId, cwd: '/Users/[USER]', now });
    expect(buildClaudeCodeSession({ messages, sessionId, cwd: '/Users/[USER]', now }).text).toBe(written.text);
    const records = written.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const chain = records.slice(0, -1);
    expect(chain[0].parentUuid).toBeNull();
    chain.forEach((record, index) => {
      expect(record).toMatchObject({ sessionId, cwd: '/Users/[USER]', isSidechain: false, type: messages[index].role });
      expect(record.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      if (index > 0) expect(record.parentUuid).toBe(chain[index - 1].uuid);
    });
    expect(new Set(chain.map((record) => record.uuid)).size).toBe(chain.length);
    expect(written.leafUuid).toBe(chain.at(-1).uuid);
    expect(records.at(-1)).toEqual({
      type: 'last-prompt',
      lastPrompt: 'generate session reports and update your repo M-Claude',
      sessionId,
    });
  });

  it('parse → fold → write → parse on the real session: the folded view survives the file, epoch after epoch', () => {
    const history = readTranscript(fixture).messages;
    const session = new FoldSession({ pressureCeiling: 8_000 });
    let folded = 0;
    for (let end = 16; end <= history.length; end += 9) {
      const view = session.prepare(history.slice(0, end));
      if (view.foldedRange !== null) folded++;
      const written = buildClaudeCodeSession({ messages: view.messages, sessionId, cwd: '/Users/[USER]', now });
      const reread = readTranscript(written.text, { fileName: `${sessionId}.jsonl` });
      expect(reread.issues).toEqual([]);
      expect(reread.messages).toEqual(claudeCodeRows(view.messages));
      // The rewritten session is itself a valid history for a fresh fold.
      expect(() => new FoldSession({ pressureCeiling: 8_000 }).prepare(reread.messages)).not.toThrow();
    }
    expect(folded).toBeGreaterThan(3);
    const finalView = session.prepare(history);
    const text = buildClaudeCodeSession({ messages: finalView.messages, sessionId, cwd: '/Users/[USER]', now }).text;
    expect(text.length).toBeLessThan(fixture.length / 2);
    expect(text).toContain('[warpfold fold');
  });

  it('refuses messages that are not Anthropic user / assistant rows', () => {
    expect(() =>
      buildClaudeCodeSession({ messages: [{ role: 'system', content: 'x' }], sessionId, cwd: '/w', now }),
    ).toThrow(/claude-cli: messages\[0\]\.role/);
    expect(() => buildClaudeCodeSession({ messages: [], sessionId: '', cwd: '/w', now })).toThrow(/sessionId/);
  });
});

describe('stream-json lines', () => {
  it('writes a user turn and reads init, assistant and result lines as the CLI prints them', () => {
    expect(JSON.parse(claudeStreamUserLine('hi'))).toEqual({
      type: 'user',
      message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    });
    expect(
      readClaudeStreamLine(
        '{"type":"system","subtype":"init","cwd":"/w","session_id":"s-1","tools":["Bash"],"model":"claude-sonnet-4-5"}',
      ),
    ).toEqual({
      type: 'system',
      subtype: 'init',
      sessionId: 's-1',
      usage: undefined,
      result: undefined,
      isError: undefined,
    });
    const result = readClaudeStreamLine(
      '{"type":"result","subtype":"success","is_error":false,"duration_ms":2300,"num_turns":1,"result":"Done.","session_id":"s-1","total_cost_usd":0.01,"usage":{"input_tokens":3,"cache_creation_input_tokens":500,"cache_read_input_tokens":12000,"output_tokens":40}}',
    );
    expect(result).toMatchObject({
      type: 'result',
      sessionId: 's-1',
      result: 'Done.',
      isError: false,
      usage: { measuredInputTokens: 12503, outputTokens: 40 },
    });
    expect(readClaudeStreamLine('not json')).toBeNull();
  });
});
