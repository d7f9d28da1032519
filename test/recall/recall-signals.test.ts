import { describe, it, expect } from 'vitest';
import { backupCopies, callTouches, wholeFileViews } from '../../src/recall/call-touches.ts';
import { extractRecallSignals } from '../../src/recall/recall-signals.ts';
import { backupSourcesOfShell, shellTouches, wholeViewsOfShell } from '../../src/recall/shell-touches.ts';
import { normalizePath, pathsMatch } from '../../src/text/normalize-path.ts';
import { DIALECTS, readHistory, renderScript, type ScriptStep } from './dialects.ts';
import { LOADER_SCRIPT } from './scenario.ts';

const signalsOf = (script: readonly ScriptStep[], dialect: (typeof DIALECTS)[number], from = 0) =>
  extractRecallSignals(readHistory(renderScript(script, dialect)), from);

describe('extractRecallSignals', () => {
  it('reads the same paths and identifiers from OpenAI, Anthropic and Gemini histories', () => {
    const seen = DIALECTS.map((dialect) => {
      const signals = signalsOf(LOADER_SCRIPT, dialect);
      return {
        paths: signals.paths.map((signal) => [signal.value, signal.source]),
        identifiers: signals.identifiers.map((signal) => signal.value),
      };
    });
    expect(seen[0].paths).toEqual([
      ['src/config/loader.ts', 'edit-target'],
      ['docs/config.md', 'tool-argument'],
      ['test/config.test.ts', 'tool-argument'],
    ]);
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
  });

  it('reads only the newest activity, from the given index on', () => {
    const messages = readHistory(renderScript(LOADER_SCRIPT, 'anthropic'));
    const secondTurn = messages.findIndex((message) => message.text.startsWith('Before fixing'));
    const signals = extractRecallSignals(messages, secondTurn);
    expect(signals.from).toBe(secondTurn);
    expect(signals.to).toBe(messages.length);
    expect(signals.paths.map((signal) => signal.value)).toEqual(['src/config/loader.ts', 'docs/config.md']);
    expect(signals.paths.find((signal) => signal.value === 'docs/config.md')).toMatchObject({
      source: 'tool-argument',
    });
    expect(extractRecallSignals(messages, messages.length).paths).toEqual([]);
  });

  it("takes paths and identifiers from the user's words, bare file names included", () => {
    const script: ScriptStep[] = [
      {
        kind: 'user',
        text: 'Check models.py and ./app//views.py; the deploy at https://ci.example.com/run/42 failed with ERR_BAD_PORT.',
      },
    ];
    for (const dialect of DIALECTS) {
      const signals = signalsOf(script, dialect);
      expect(signals.paths.map((signal) => signal.value)).toEqual(['models.py', 'app/views.py']);
      expect(signals.paths.every((signal) => signal.source === 'user-text')).toBe(true);
      expect(signals.identifiers.map((signal) => signal.value)).toEqual([
        'https://ci.example.com/run/42',
        'ERR_BAD_PORT',
      ]);
    }
  });

  it('ignores bodies being written and paths that only appear in tool output', () => {
    const script: ScriptStep[] = [
      { kind: 'user', text: 'go' },
      {
        kind: 'assistant',
        text: '',
        calls: [
          {
            id: 'w',
            name: 'Write',
            input: { file_path: 'src/new.ts', content: "import x from './lib/other.ts'; // 7f3a9c2e1b4d" },
          },
        ],
      },
      { kind: 'results', results: [{ id: 'w', name: 'Write', text: 'wrote src/new.ts; see also src/unrelated.ts' }] },
    ];
    const signals = signalsOf(script, 'openai', 1);
    expect(signals.paths).toEqual([{ value: 'src/new.ts', source: 'edit-target', messageIndex: 1 }]);
    expect(signals.identifiers).toEqual([]);
  });

  it('keeps the newest mention of a value and orders newest first', () => {
    const script: ScriptStep[] = [
      { kind: 'user', text: 'look at a/one.py' },
      { kind: 'assistant', text: '', calls: [{ id: 'c1', name: 'bash', input: { command: 'cat a/two.py' } }] },
      { kind: 'results', results: [{ id: 'c1', name: 'bash', text: '...' }] },
      {
        kind: 'assistant',
        text: '',
        calls: [{ id: 'c2', name: 'bash', input: { command: "sed -i 's/x/y/' a/one.py" } }],
      },
    ];
    const signals = signalsOf(script, 'openai');
    expect(signals.paths).toEqual([
      { value: 'a/one.py', source: 'edit-target', messageIndex: 3 },
      { value: 'a/two.py', source: 'tool-argument', messageIndex: 1 },
    ]);
  });
});

describe('shell and tool touches', () => {
  it('reads a shell command word by word', () => {
    expect(shellTouches("cd /repo && cat src/a.py | grep -n 'def x' && python run.py 2>&1 > out/log.txt")).toEqual([
      { path: 'src/a.py', how: 'read' },
      { path: 'out/log.txt', how: 'written' },
      { path: 'run.py', how: 'read' },
    ]);
    expect(shellTouches("sed -i 's/a/b/' ./lib//x.rb && echo hi >> notes.md && tee -a c.txt < in.json")).toEqual([
      { path: 'lib/x.rb', how: 'edited' },
      { path: 'notes.md', how: 'edited' },
      { path: 'in.json', how: 'read' },
      { path: 'c.txt', how: 'edited' },
    ]);
    expect(shellTouches("cat > fix.py << 'EOF'\nopen('secret/config.yaml').read()\nEOF\npython fix.py")).toEqual([
      { path: 'fix.py', how: 'written' },
      { path: 'fix.py', how: 'read' },
    ]);
    expect(shellTouches('ls -la django/ && grep -rn "x" . && pip install pytz -q && echo 1.2.3')).toEqual([]);
  });

  it('knows file tools, editor sub-commands, Codex shells and patches', () => {
    expect(
      callTouches({ id: '1', name: 'str_replace_editor', input: { command: 'view', path: '/testbed/a.py' } }),
    ).toEqual([{ path: '/testbed/a.py', how: 'read' }]);
    expect(
      callTouches({
        id: '2',
        name: 'str_replace_editor',
        input: { command: 'create', path: 'b.py', file_text: 'see c/d.py' },
      }),
    ).toEqual([{ path: 'b.py', how: 'written' }]);
    expect(callTouches({ id: '3', name: 'shell', input: { command: ['bash', '-lc', 'cat src/x.ts'] } })).toEqual([
      { path: 'src/x.ts', how: 'read' },
    ]);
    expect(
      callTouches({
        id: '4',
        name: 'apply_patch',
        input: {
          input: '*** Begin Patch\n*** Update File: src/y.ts\n@@\n-a\n+b\n*** Add File: src/z.ts\n+x\n*** End Patch',
        },
      }),
    ).toEqual([
      { path: 'src/y.ts', how: 'edited' },
      { path: 'src/z.ts', how: 'written' },
    ]);
    expect(callTouches({ id: '5', name: 'read_many_files', input: { paths: ['a/b.md', './c//d.md'] } })).toEqual([
      { path: 'a/b.md', how: 'read' },
      { path: 'c/d.md', how: 'read' },
    ]);
    expect(callTouches({ id: '6', name: 'Grep', input: { pattern: 'TODO', path: 'src/app.ts' } })).toEqual([
      { path: 'src/app.ts', how: 'read' },
    ]);
  });

  it('knows which calls show a file whole', () => {
    expect(wholeViewsOfShell('cat ./pydicom//config.py')).toEqual(['pydicom/config.py']);
    expect(wholeViewsOfShell('cat -n a.py b.py')).toEqual(['a.py', 'b.py']);
    expect(wholeViewsOfShell('cat a.py | head -20')).toEqual([]);
    expect(wholeViewsOfShell('cd /repo && cat a.py')).toEqual([]);
    expect(wholeViewsOfShell("cat > a.py << 'EOF'\nx = 1\nEOF")).toEqual([]);
    expect(wholeViewsOfShell('grep -n def a.py')).toEqual([]);
    expect(wholeFileViews({ id: '1', name: 'Read', input: { file_path: '/repo/a.py' } })).toEqual(['/repo/a.py']);
    expect(
      wholeFileViews({ id: '2', name: 'Read', input: { file_path: '/repo/a.py', offset: 100, limit: 50 } }),
    ).toEqual([]);
    expect(
      wholeFileViews({ id: '3', name: 'str_replace_editor', input: { command: 'view', path: '/testbed/a.py' } }),
    ).toEqual(['/testbed/a.py']);
    expect(
      wholeFileViews({
        id: '4',
        name: 'str_replace_editor',
        input: { command: 'view', path: '/testbed/a.py', view_range: [1, 40] },
      }),
    ).toEqual([]);
    expect(
      wholeFileViews({
        id: '5',
        name: 'str_replace_editor',
        input: { command: 'create', path: 'b.py', file_text: 'x' },
      }),
    ).toEqual([]);
    expect(wholeFileViews({ id: '6', name: 'bash', input: { command: 'cat src/x.ts' } })).toEqual(['src/x.ts']);
  });

  it('knows a file copied or moved aside under a backup name', () => {
    expect(backupSourcesOfShell('cp ./pydicom/config.py ./pydicom/config.py.backup')).toEqual(['pydicom/config.py']);
    expect(backupSourcesOfShell('mv a.py a.py.orig && cp -p lib/b.rb /tmp/b_bak.rb')).toEqual(['a.py', 'lib/b.rb']);
    expect(backupSourcesOfShell('cp a.py b.py')).toEqual([]);
    expect(backupSourcesOfShell('cp a.py a.py')).toEqual([]);
    expect(backupSourcesOfShell('cp -r src src.bak')).toEqual([]);
    expect(backupSourcesOfShell('cp a.py b.py dest/')).toEqual([]);
    expect(backupCopies({ id: '1', name: 'bash', input: { command: 'cp config.py config.py.bak' } })).toEqual([
      'config.py',
    ]);
    expect(
      backupCopies({ id: '2', name: 'str_replace_editor', input: { command: 'view', path: 'config.py.bak' } }),
    ).toEqual([]);
  });

  it('normalises and matches paths', () => {
    expect(normalizePath(' ./src//a/./b.ts/ ')).toBe('src/a/b.ts');
    expect(normalizePath('././x.py')).toBe('x.py');
    expect(pathsMatch('/testbed/django/db/utils.py', 'django/db/utils.py')).toBe(true);
    expect(pathsMatch('utils.py', 'django/db/utils.py')).toBe(true);
    expect(pathsMatch('app/utils.py', 'lib/utils.py')).toBe(false);
    expect(pathsMatch('xutils.py', 'django/utils.py')).toBe(false);
    expect(pathsMatch('/a/utils.py', '/b/a/utils.py')).toBe(false);
  });
});
