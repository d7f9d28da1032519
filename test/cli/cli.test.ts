// The built `warpfold` bin run as a child process, in a temporary HOME holding Claude Code, Codex CLI
// and Gemini CLI folders: its figures are the baselines' replay of the same messages, its exit
// codes and messages are a Unix tool's, and it never changes a transcript.
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clearStrategy,
  rawStrategy,
  replaySession,
  summaryRow,
  truncateStrategy,
  warpfoldStrategy,
  type BaselineMessage,
} from '../../src/baselines/index.ts';
import { readTranscript } from '../../src/transcripts/index.ts';
import { REPO_ROOT } from '../helpers/fixtures.ts';
import { buildCli, runBin } from './support/built-cli.ts';

const FIXTURES = join(REPO_ROOT, 'test/fixtures');
const CLAUDE = join(FIXTURES, 'claude-code/57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl');
const CODEX = join(FIXTURES, 'cli/codex/rollout-2026-11-30T10-00-00-019ad4c2-7b10-7a3e-9c41-2f6d8e0b5a17.jsonl');
const GEMINI = join(FIXTURES, 'cli/gemini/session-2026-11-30T10-00-6f1c2b9e.json');
const MESSAGE_ARRAY = join(FIXTURES, 'sessions/msa-ds-chat-dev-pydicom__pydicom-901.json');
const CEILING = 8_000;

interface ReportJson {
  sessions: Array<{
    file: string;
    format: string;
    calls: number;
    rawPeakTokens: number;
    overflowCalls: number;
    ceiling: number;
    ceilingSource: string;
    price: { id: string; source: string | null; checked: string | null } | null;
    calibratedCalls: number;
    measured: { calls: number; peakInputTokens: number; totalCost: number | null } | null;
    cost: { raw: number | null; truncate: number | null; clear: number | null; warpfold: number | null };
    warpfoldCachePercent: number;
    warpfoldPeakTokens: number;
    retentionPercent: number;
    retentionBelowTarget: boolean;
    skippedLines: number;
  }>;
  total: { sessions: number; calls: number; cost: { raw: number | null; warpfold: number | null } };
  failed: Array<{ file: string; error: string }>;
  tokenizer: string;
}

function snapshot(folder: string): Map<string, string> {
  const digests = new Map<string, string>();
  const walk = (path: string) => {
    for (const entry of readdirSync(path)) {
      const full = join(path, entry);
      if (statSync(full).isDirectory()) walk(full);
      else digests.set(full, createHash('sha256').update(readFileSync(full)).digest('hex'));
    }
  };
  walk(folder);
  return digests;
}

/** What warpfold/baselines' replaySession (the bench's replay) says of the same messages at the same ceiling, price and clock. */
function benchFigures(path: string) {
  const read = readTranscript(readFileSync(path, 'utf8'), { fileName: path });
  const messages = read.messages as BaselineMessage[];
  const options = { ceiling: CEILING, price: 'sonnet-class', millisecondsBetweenCalls: 20_000 };
  const raw = replaySession(messages, rawStrategy, options);
  const truncate = replaySession(messages, truncateStrategy, options);
  const clear = replaySession(messages, clearStrategy, options);
  const warpfold = replaySession(messages, warpfoldStrategy(), options);
  return {
    raw: summaryRow(raw, raw.cost),
    truncate: summaryRow(truncate, raw.cost),
    clear: summaryRow(clear, raw.cost),
    warpfold: summaryRow(warpfold, raw.cost),
  };
}

describe('the warpfold bin', () => {
  let root: string;
  let home: string;
  let bin: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'warpfold-cli-'));
    bin = await buildCli(join(REPO_ROOT, 'node_modules/.cache/warpfold-cli-test'));
    home = join(root, 'home');
    mkdirSync(join(home, '.claude/projects/-home-user-project'), { recursive: true });
    cpSync(CLAUDE, join(home, '.claude/projects/-home-user-project/57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl'));
    mkdirSync(join(home, '.codex/sessions/2026/11/30'), { recursive: true });
    cpSync(CODEX, join(home, '.codex/sessions/2026/11/30', CODEX.split('/').pop()!));
    mkdirSync(join(home, '.gemini/tmp/c0ffee/chats'), { recursive: true });
    cpSync(GEMINI, join(home, '.gemini/tmp/c0ffee/chats', GEMINI.split('/').pop()!));
    cpSync(MESSAGE_ARRAY, join(home, 'messages.json'));
  }, 180_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('reports the sessions of all three CLIs and a message array with the figures of the bench replay', () => {
    const before = snapshot(home);
    const run = runBin(
      bin,
      [
        'report',
        '--claude',
        '--codex',
        '--gemini',
        'messages.json',
        '--ceiling',
        String(CEILING),
        '--price',
        'sonnet-class',
        '--json',
      ],
      { home },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as ReportJson;
    expect(report.tokenizer).toBe('o200k');
    expect(report.sessions.map((session) => session.format).sort()).toEqual([
      'benchmark-session',
      'claude-code-jsonl',
      'codex-rollout-jsonl',
      'gemini-cli-json',
    ]);
    let compared = 0;
    for (const session of report.sessions) {
      expect(session.ceiling).toBe(CEILING);
      expect(session.ceilingSource).toBe('flag');
      expect(session.price?.id).toBe('sonnet-class');
      expect(session.calls, session.file).toBeGreaterThan(5);
      if (session.format === 'gemini-cli-json') continue; // the bench counts calls before `assistant` messages only
      // a session that records usage is calibrated to it; the bench replays counts alone
      if (session.calibratedCalls > 0) continue;
      compared++;
      expect(session.warpfoldPeakTokens, session.file).toBeLessThanOrEqual(CEILING);
      const bench = benchFigures(isAbsolute(session.file) ? session.file : join(home, session.file));
      expect(session.calls, session.file).toBe(bench.raw.calls);
      expect(session.rawPeakTokens, session.file).toBe(bench.raw.maxTokens);
      expect(session.cost, session.file).toEqual({
        raw: bench.raw.cost,
        truncate: bench.truncate.cost,
        clear: bench.clear.cost,
        warpfold: bench.warpfold.cost,
      });
      expect(session.warpfoldCachePercent, session.file).toBe(bench.warpfold.cachePercent);
      expect(session.warpfoldPeakTokens, session.file).toBe(bench.warpfold.maxTokens);
      expect(session.retentionPercent, session.file).toBe(bench.warpfold.retentionPercent);
    }
    expect(compared).toBeGreaterThanOrEqual(2);
    expect(report.total.sessions).toBe(4);
    expect(report.total.calls).toBe(report.sessions.reduce((sum, session) => sum + session.calls, 0));
    expect(snapshot(home)).toEqual(before);
  });

  it('prints a table by default and CSV with --csv', () => {
    const table = runBin(bin, ['report', '--codex', '--ceiling', '8000', '--price', 'sonnet-class'], { home });
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(
      /^session\s+model\s+price\s+ceiling\s+calls\s+peak in\s+spent \$\s+raw \$\s+truncate \$\s+clear \$\s+warpfold \$\s+cache hit\s+retention\s+fold time$/m,
    );
    expect(table.stdout).toMatch(/^total \(1 session\)/m);
    const csv = runBin(bin, ['report', '--codex', '--ceiling', '8000', '--csv'], { home });
    expect(csv.status).toBe(0);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0].split(',')).toContain('retention_at_need_percent');
    expect(lines).toHaveLength(2);
  });

  it('names a corrupt line with its file and line number, and still counts the rest of the session', () => {
    const lines = readFileSync(CLAUDE, 'utf8').split('\n');
    lines[6] = lines[6].slice(0, 40);
    const damaged = join(root, 'damaged.jsonl');
    writeFileSync(damaged, lines.join('\n'));
    const run = runBin(bin, ['report', damaged, '--ceiling', '8000', '--json'], { home });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`${damaged}:7: line does not parse as JSON`);
    const report = JSON.parse(run.stdout) as ReportJson;
    expect(report.sessions[0].skippedLines).toBe(1);
    expect(report.sessions[0].calls).toBeGreaterThan(5);
  });

  it('exits 1 when a file cannot be read, after reporting the others', () => {
    const run = runBin(bin, ['report', 'messages.json', 'missing.jsonl', '--ceiling', '8000', '--json'], { home });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/missing\.jsonl: cannot read: ENOENT/);
    const report = JSON.parse(run.stdout) as ReportJson;
    expect(report.sessions).toHaveLength(1);
    expect(report.failed).toEqual([{ file: 'missing.jsonl', error: expect.stringContaining('ENOENT') }]);
    const notTranscript = join(root, 'notes.json');
    writeFileSync(notTranscript, '{"hello": "world"}');
    const unreadable = runBin(bin, ['report', notTranscript], { home });
    expect(unreadable.status).toBe(1);
    expect(unreadable.stderr).toContain(notTranscript);
  });

  it('exits 2 on bad usage, naming the problem and the help to read', () => {
    for (const args of [
      [],
      ['frobnicate'],
      ['report'],
      ['report', '--claude', '--ceiling', 'lots'],
      ['report', '--claude', '--bogus'],
      ['report', '--claude', '--json', '--csv'],
      ['report', '--claude', '--price', 'no-such-model'],
      ['fold'],
      ['inspect'],
    ]) {
      const run = runBin(bin, args, { home });
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(/^warpfold: |Usage:/m);
      expect(run.stdout, args.join(' ')).toBe('');
    }
    expect(runBin(bin, ['report', '--claude', '--bogus'], { home }).stderr).toContain("Run 'warpfold report --help'");
  });

  it('explains itself and each command with --help: usage, options, an example, exit codes', () => {
    for (const args of [
      ['--help'],
      ['report', '--help'],
      ['inspect', '--help'],
      ['fold', '--help'],
      ['help', 'report'],
    ]) {
      const run = runBin(bin, args, { home });
      expect(run.status, args.join(' ')).toBe(0);
      expect(run.stdout).toMatch(/Usage:/);
      expect(run.stdout).toMatch(/Example:/);
      expect(run.stdout).toMatch(/Exit codes:\n {2}0 .*\n {2}1 .*\n {2}2 /);
    }
    expect(runBin(bin, ['--version'], { home }).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('writes the folded view at a call in the input dialect, with its receipts beside it', () => {
    const before = snapshot(home);
    const out = join(root, 'view.json');
    const receipt = join(root, 'receipt.json');
    const file = join(home, '.claude/projects/-home-user-project/57bb5674-54b1-4ce6-9157-2d341cd9bfc1.jsonl');
    const run = runBin(bin, ['fold', file, '--ceiling', '4000', '--out', out, '--receipt', receipt], { home });
    expect(run.status).toBe(0);
    const view = JSON.parse(readFileSync(out, 'utf8')) as Array<{ role: string; content: unknown }>;
    expect(view.length).toBeGreaterThan(2);
    // Anthropic messages: blocks, no OpenAI tool messages
    expect(view.some((message) => message.role === 'tool')).toBe(false);
    expect(
      view.some(
        (message) =>
          Array.isArray(message.content) &&
          (message.content as Array<{ type: string }>).some((block) => block.type === 'tool_use'),
      ),
    ).toBe(true);
    const receipts = JSON.parse(readFileSync(receipt, 'utf8')) as {
      call: number;
      of: number;
      receipts: Array<{ format: string }>;
    };
    expect(receipts.call).toBe(receipts.of);
    expect(receipts.receipts.length).toBeGreaterThan(0);
    expect(receipts.receipts[0].format).toBe('warpfold/fold-receipt');
    // --at: the view at call 1 is the raw history before it; to stdout
    const first = runBin(bin, ['fold', 'messages.json', '--at', '1', '--ceiling', '4000'], { home });
    expect(first.status).toBe(0);
    const firstView = JSON.parse(first.stdout) as unknown[];
    expect(firstView).toEqual(
      (JSON.parse(readFileSync(MESSAGE_ARRAY, 'utf8')) as { messages: unknown[] }).messages.slice(0, firstView.length),
    );
    expect(runBin(bin, ['fold', 'messages.json', '--at', '100000'], { home }).status).toBe(2);
    expect(snapshot(home)).toEqual(before);
  });

  it('counts with the bundled o200k encoder outside any node_modules, every column filled', () => {
    // the same build, outside any node_modules
    const alone = join(root, 'alone');
    cpSync(join(bin, '../..'), alone, { recursive: true });
    const args = ['report', '--claude', '--codex', '--ceiling', '8000', '--price', 'gpt-5-codex', '--json'];
    const run = runBin(join(alone, 'dist/cli.js'), args, { home });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as ReportJson;
    expect(report.tokenizer).toBe('o200k');
    expect(report.sessions).toHaveLength(2);
    for (const session of report.sessions) {
      expect(Object.values(session.cost).every((cost) => typeof cost === 'number')).toBe(true);
      expect(typeof session.retentionPercent).toBe('number');
    }
    expect(
      JSON.parse(runBin(bin, args, { home }).stdout).sessions.map((session: { cost: unknown }) => session.cost),
    ).toEqual(report.sessions.map((session) => session.cost));
  });

  it('says "no sessions found" and exits 1 when --claude finds nothing', () => {
    const empty = join(root, 'empty-home');
    mkdirSync(empty, { recursive: true });
    const run = runBin(bin, ['report', '--claude'], { home: empty });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`no sessions found under ${join(empty, '.claude/projects')}`);
  });

  it('shows an unknown model unpriced, said once, takes the ceiling from the recorded model, and prices it with --price', () => {
    const run = runBin(bin, ['report', '--codex', '--json'], { home });
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as ReportJson;
    // gpt-4o: a 128K window, no price in the model table
    expect(report.sessions[0].ceiling).toBeGreaterThan(50_000);
    expect(report.sessions[0].ceilingSource).toBe('model');
    expect(report.sessions[0].price).toBeNull();
    expect(report.sessions[0].cost).toEqual({ raw: null, truncate: null, clear: null, warpfold: null });
    expect(run.stderr.match(/no price known for "gpt-4o"/g)).toHaveLength(1);
    const table = runBin(bin, ['report', '--codex'], { home });
    expect(table.stdout).toMatch(/unpriced/);
    const priced = JSON.parse(runBin(bin, ['report', '--codex', '--price', 'gpt-4.1', '--json'], { home }).stdout);
    expect(priced.sessions[0].price.id).toBe('gpt-4.1');
    expect(priced.sessions[0].cost.raw).toBeGreaterThan(0);
  });
});
