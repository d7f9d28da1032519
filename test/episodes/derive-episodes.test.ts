import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { FoldOptionsError } from '../../src/errors.ts';
import { deriveEpisodesFromMessages, MAX_CONCLUSION_CHARS, type Episode } from '../../src/episodes/index.ts';
import { DIALECTS, readHistory, renderScript, type ScriptStep } from '../recall/dialects.ts';

const read = (id: string, path: string) => ({ id, name: 'read_file', input: { path } });
const edit = (id: string, path: string) => ({
  id,
  name: 'edit_file',
  input: { path, old_string: 'a', new_string: 'b' },
});
const bash = (id: string, command: string) => ({ id, name: 'bash', input: { command } });
const result = (id: string, name: string, text: string, isError = false) => ({
  kind: 'results' as const,
  results: [{ id, name, text, isError }],
});

/** Five turns: settled work, a blocked question, an unglyphed answer, an interruption, and work still running. */
const GLYPH_SCRIPT: readonly ScriptStep[] = [
  { kind: 'system', text: 'You are an agent.' },
  { kind: 'user', text: 'Fix the login bug in src/auth/login.ts' },
  {
    kind: 'assistant',
    text: '🔍 Maybe the session cookie is wrong; checking src/auth/login.ts.',
    calls: [read('c1', 'src/auth/login.ts')],
  },
  result('c1', 'read_file', 'export function login() { setCookie("sid", { sameSite: "None" }); }'),
  { kind: 'assistant', text: '▶️ Patching the cookie flag now.', calls: [edit('c2', 'src/auth/login.ts')] },
  result('c2', 'edit_file', 'edited'),
  {
    kind: 'assistant',
    text: '⚠️ Never set SameSite=None without Secure in src/auth/login.ts.',
    calls: [bash('c3', 'npm test')],
  },
  result('c3', 'bash', '12 passed'),
  { kind: 'assistant', text: '🏁 Login works again: the cookie now sets Secure.' },
  { kind: 'user', text: 'Also check the logout path.' },
  { kind: 'assistant', text: '❓ Which logout: the API route or the UI button?' },
  { kind: 'user', text: 'The API route, src/auth/logout.ts' },
  { kind: 'assistant', text: "I'll look.", calls: [read('c4', 'src/auth/logout.ts')] },
  result('c4', 'read_file', 'export function logout() { clearSession(); }'),
  { kind: 'assistant', text: 'Logout clears the session correctly; no change needed.' },
  { kind: 'user', text: 'Now refactor the session store.' },
  { kind: 'assistant', text: '▶ Starting with the store.', calls: [read('c5', 'src/session/store.ts')] },
  result('c5', 'read_file', 'export class Store {}'),
  { kind: 'user', text: 'Stop, something else first: the rate limiter.' },
  { kind: 'assistant', text: '🔍 Looking at src/limits/rate.ts', calls: [read('c6', 'src/limits/rate.ts')] },
];

const TRANSIENT = [
  '🔍 Maybe the session cookie',
  '▶️ Patching',
  '❓ Which logout',
  '▶ Starting',
  '🔍 Looking at',
  "I'll look.",
];

describe('deriveEpisodesFromMessages', () => {
  for (const dialect of DIALECTS) {
    it(`seals one episode per user turn and gates conclusions on settled glyphs (${dialect})`, () => {
      const episodes = deriveEpisodesFromMessages(renderScript(GLYPH_SCRIPT, dialect), { sessionId: 's1' });
      expect(episodes.map((episode) => [episode.span.startIndex, episode.span.endIndex, episode.outcome])).toEqual([
        [1, 9, 'succeeded'],
        [9, 11, 'failed'],
        [11, 15, 'succeeded'],
        [15, 18, 'abandoned'],
        [18, 20, 'open'],
      ]);
      const [fix, blocked, logout, interrupted, running] = episodes;
      expect(fix.conclusions.map((conclusion) => [conclusion.kind, conclusion.text, conclusion.messageIndex])).toEqual([
        ['hazard', '⚠️ Never set SameSite=None without Secure in src/auth/login.ts.', 6],
        ['verdict', '🏁 Login works again: the cookie now sets Secure.', 8],
      ]);
      expect(fix.files).toEqual([{ path: 'src/auth/login.ts', how: 'edited' }]);
      expect(fix.request).toBe('Fix the login bug in src/auth/login.ts');
      expect(blocked.conclusions).toEqual([]);
      expect(logout.conclusions).toEqual([
        {
          kind: 'answer',
          text: 'Logout clears the session correctly; no change needed.',
          messageIndex: 14,
          paths: ['src/auth/logout.ts'],
        },
      ]);
      expect(interrupted.conclusions).toEqual([]);
      expect(running.conclusions).toEqual([]);
      const allText = episodes
        .flatMap((episode) => episode.conclusions.map((conclusion) => conclusion.text))
        .join('\n');
      for (const transient of TRANSIENT) expect(allText).not.toContain(transient);
    });
  }

  it('never turns a transient final message into a conclusion, whatever its glyph', () => {
    for (const glyph of ['🔍', '🔎', '▶', '▶️', '❓', '❔', '[in-progress]', '[executing]', '[blocked]']) {
      const script: ScriptStep[] = [
        { kind: 'user', text: 'go' },
        { kind: 'assistant', text: `${glyph} still thinking about a.py` },
      ];
      const [episode] = deriveEpisodesFromMessages(renderScript(script, 'openai'), { sessionId: 's' });
      expect(episode.conclusions).toEqual([]);
    }
    for (const [glyph, kind] of [
      ['🏁', 'verdict'],
      ['⚠️', 'hazard'],
      ['⚠', 'hazard'],
      ['**🏁 Verdict:**', 'verdict'],
    ] as const) {
      const script: ScriptStep[] = [
        { kind: 'user', text: 'go' },
        { kind: 'assistant', text: `${glyph} done with a.py` },
      ];
      const [episode] = deriveEpisodesFromMessages(renderScript(script, 'openai'), { sessionId: 's' });
      expect(episode.conclusions.map((conclusion) => conclusion.kind)).toEqual([kind]);
      expect(episode.conclusions[0].text).toBe(`${glyph} done with a.py`);
    }
  });

  it('cuts a turn after a 🏁 verdict when new work follows', () => {
    const script: ScriptStep[] = [
      { kind: 'user', text: 'Fix a.py, then update the docs.' },
      { kind: 'assistant', text: '', calls: [edit('e1', 'a.py')] },
      result('e1', 'edit_file', 'ok'),
      {
        kind: 'assistant',
        text: '🏁 a.py fixed; the off-by-one was in the loop bound.',
        calls: [bash('t1', 'pytest tests/test_a.py')],
      },
      result('t1', 'bash', '1 passed'),
      {
        kind: 'assistant',
        text: '▶️ Now the docs.',
        calls: [{ id: 'w1', name: 'write_file', input: { file_path: 'docs/a.md', content: '# a' } }],
      },
      result('w1', 'write_file', 'written'),
      { kind: 'assistant', text: 'Docs updated.' },
    ];
    const episodes = deriveEpisodesFromMessages(renderScript(script, 'anthropic'), { sessionId: 's' });
    expect(episodes.map((episode) => [episode.span.startIndex, episode.span.endIndex, episode.outcome])).toEqual([
      [0, 5, 'succeeded'],
      [5, 8, 'succeeded'],
    ]);
    expect(episodes[0].files).toEqual([
      { path: 'a.py', how: 'edited' },
      { path: 'tests/test_a.py', how: 'read' },
    ]);
    expect(episodes[0].conclusions.map((conclusion) => [conclusion.kind, conclusion.paths])).toEqual([
      ['verdict', ['a.py']],
    ]);
    expect(episodes[1].files).toEqual([{ path: 'docs/a.md', how: 'created' }]);
    expect(episodes[1].conclusions).toEqual([
      { kind: 'answer', text: 'Docs updated.', messageIndex: 7, paths: ['docs/a.md'] },
    ]);
    expect(episodes[1].request).toBe('Fix a.py, then update the docs.');
  });

  it('tells created from edited across the session, under any spelling', () => {
    const script: ScriptStep[] = [
      { kind: 'user', text: 'one' },
      { kind: 'assistant', text: '', calls: [read('r', '/repo/src/b.ts')] },
      result('r', 'read_file', 'b'),
      { kind: 'assistant', text: 'read' },
      { kind: 'user', text: 'two' },
      {
        kind: 'assistant',
        text: '',
        calls: [bash('w', "cat > ./src/b.ts <<'EOF'\nnew\nEOF\ncat > src/c.ts <<'EOF'\nc\nEOF")],
      },
      result('w', 'bash', ''),
      { kind: 'assistant', text: 'wrote' },
    ];
    const episodes = deriveEpisodesFromMessages(renderScript(script, 'openai'), { sessionId: 's' });
    expect(episodes[1].files).toEqual([
      { path: 'src/b.ts', how: 'edited' },
      { path: 'src/c.ts', how: 'created' },
    ]);
  });

  it('calls a turn failed when its final answer follows a failing tool result', () => {
    const script: ScriptStep[] = [
      { kind: 'user', text: 'run the tests' },
      { kind: 'assistant', text: '', calls: [bash('t', 'pytest')] },
      result('t', 'bash', 'Traceback (most recent call last):\n  File "x.py"\nValueError: boom', true),
      { kind: 'assistant', text: 'The tests fail with ValueError.' },
    ];
    for (const dialect of DIALECTS)
      expect(deriveEpisodesFromMessages(renderScript(script, dialect), { sessionId: 's' })[0].outcome).toBe('failed');
  });

  it('takes span times from the host, or from message timestamps', () => {
    const history = renderScript(GLYPH_SCRIPT, 'openai');
    const episodes = deriveEpisodesFromMessages(history, {
      sessionId: 's',
      timestamps: history.map((_, index) => 1_000 * index),
    });
    expect(episodes[0].span).toEqual({ startIndex: 1, endIndex: 9, startedAt: 1_000, endedAt: 8_000 });
    const stamped = history.map((message, index) => ({
      ...message,
      timestamp: new Date(Date.UTC(2025, 0, 1, 0, index)).toISOString(),
    }));
    expect(deriveEpisodesFromMessages(stamped, { sessionId: 's' })[1].span).toEqual({
      startIndex: 9,
      endIndex: 11,
      startedAt: Date.UTC(2025, 0, 1, 0, 9),
      endedAt: Date.UTC(2025, 0, 1, 0, 10),
    });
    expect(deriveEpisodesFromMessages(history, { sessionId: 's' })[0].span).toEqual({ startIndex: 1, endIndex: 9 });
  });

  it('clips only very long conclusions, and says so', () => {
    const long = `🏁 ${'x'.repeat(MAX_CONCLUSION_CHARS + 50)}`;
    const [episode] = deriveEpisodesFromMessages(
      renderScript(
        [
          { kind: 'user', text: 'go' },
          { kind: 'assistant', text: long },
        ],
        'openai',
      ),
      { sessionId: 's' },
    );
    expect(episode.conclusions[0].text.startsWith(long.slice(0, MAX_CONCLUSION_CHARS))).toBe(true);
    expect(episode.conclusions[0].text.endsWith(`… [+${long.length - MAX_CONCLUSION_CHARS} chars]`)).toBe(true);
  });

  it('needs a session id', () => {
    expect(() => deriveEpisodesFromMessages([], { sessionId: '' })).toThrow(FoldOptionsError);
    expect(deriveEpisodesFromMessages([], { sessionId: 's' })).toEqual([]);
  });
});

describe('derive determinism', () => {
  it('gives identical episodes for identical input, provider-shaped or canonical', () => {
    for (const dialect of DIALECTS) {
      const history = renderScript(GLYPH_SCRIPT, dialect);
      const first = deriveEpisodesFromMessages(history, { sessionId: 'same' });
      expect(JSON.stringify(deriveEpisodesFromMessages(structuredClone(history), { sessionId: 'same' }))).toBe(
        JSON.stringify(first),
      );
      expect(deriveEpisodesFromMessages(readHistory(history), { sessionId: 'same' })).toEqual(first);
    }
  });

  it('gives different ids to different sessions and spans, and never repeats an id', () => {
    const history = renderScript(GLYPH_SCRIPT, 'openai');
    const a = deriveEpisodesFromMessages(history, { sessionId: 'a' });
    const b = deriveEpisodesFromMessages(history, { sessionId: 'b' });
    const all = [...a, ...b].map((episode) => episode.id);
    expect(new Set(all).size).toBe(all.length);
    expect(all.every((id) => /^ep-[0-9a-f]{16}$/.test(id))).toBe(true);
  });

  it('keeps an episode id while its history grows, so re-deriving updates instead of duplicating', () => {
    const history = renderScript(GLYPH_SCRIPT, 'gemini');
    const full = new Map(
      deriveEpisodesFromMessages(history, { sessionId: 's' }).map((episode) => [episode.span.startIndex, episode]),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: history.length }), (length) => {
        const partial = deriveEpisodesFromMessages(history.slice(0, length), { sessionId: 's' });
        for (const episode of partial) expect(episode.id).toBe(full.get(episode.span.startIndex)?.id);
        const starts = partial.map((episode: Episode) => episode.span.startIndex);
        expect(new Set(starts).size).toBe(starts.length);
      }),
      { numRuns: 40 },
    );
  });
});
