// `warpfold inspect --proxy URL` against a real proxy on 127.0.0.1 (Node sockets, file-system state,
// the scripted provider behind it): the printed table is the ledger's figures and the provider's
// usage at the model's prices, and the served inspector loads the session's raw history, live.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerLine } from '../../src/gateway/index.ts';
import { createCliOutput } from '../../src/node/cli/cli-output.ts';
import { inspectCommand } from '../../src/node/cli/inspect-command.ts';
import { runCli } from '../../src/node/cli/run-cli.ts';
import { type RunningProxy, startProxy } from '../../src/node/proxy/start-proxy.ts';
import { countTokens } from '../../src/tokens/count-tokens.ts';
import { CLAUDE_HEADERS, claudeCodeBody } from '../helpers/agent-requests.ts';
import { REPO_ROOT } from '../helpers/fixtures.ts';
import { ScriptedUpstream } from '../helpers/scripted-upstream.ts';

const TOKEN = 'proxy-token-for-the-test';
const CEILING = 40_000;
/** claude-sonnet-4-5's prices in the model table, per million: input, cache read, 5-minute cache write. */
const SONNET = { input: 3, read: 0.3, write: 3.75, minimum: 1024 };

const root = mkdtempSync(join(tmpdir(), 'warpfold-inspect-proxy-'));
const upstream = new ScriptedUpstream();
let proxy: RunningProxy;
let empty: RunningProxy;
const inspectorDir = join(root, 'inspector');
const previousInspectorDir = process.env.WARPFOLD_INSPECTOR_DIR;

function collector() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

async function call(body: Record<string, unknown>): Promise<string | null> {
  const response = await fetch(`${proxy.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { ...CLAUDE_HEADERS, 'x-warpfold-token': TOKEN },
    body: JSON.stringify(body),
  });
  await response.text();
  await proxy.gateway.idle();
  return response.headers.get('x-warpfold-verdict');
}

/**
 * `warpfold inspect ARGS` in this process. With `until`, the command is run directly with an abort
 * signal, which stands in for Ctrl-C once `until` says so; without, through runCli as the bin runs it.
 */
async function inspect(args: readonly string[], until?: (stdout: string) => Promise<boolean>) {
  const out = collector();
  const err = collector();
  const output = createCliOutput(out.stream, err.stream);
  if (until === undefined) {
    const code = await runCli(['inspect', ...args], output);
    return { code, stdout: out.text(), stderr: err.text() };
  }
  const stop = new AbortController();
  let settled = false;
  const running = inspectCommand(args, output, stop.signal).finally(() => {
    settled = true;
  });
  while (!settled && !(await until(out.text()))) await new Promise((resolve) => setTimeout(resolve, 50));
  stop.abort();
  return { code: await running, stdout: out.text(), stderr: err.text() };
}

async function ledgerOf(session: string): Promise<LedgerLine[]> {
  const response = await fetch(`${proxy.url}/warpfold/sessions/${encodeURIComponent(session)}`, {
    headers: { 'x-warpfold-token': TOKEN },
  });
  return ((await response.json()) as { lines: LedgerLine[] }).lines;
}

/** The spec of the $ columns, restated: billed from the provider's usage, raw with the client's own caching. */
function expectedDollars(lines: readonly LedgerLine[]) {
  let billed = 0;
  let raw = 0;
  let previous: number | undefined;
  for (const line of lines) {
    if (line.inputTokens === undefined) continue;
    billed +=
      (line.inputTokens * SONNET.input +
        (line.cacheReadTokens ?? 0) * SONNET.read +
        (line.cacheWriteTokens ?? 0) * SONNET.write) /
      1e6;
    const tokens = line.rawTokens as number;
    const read = previous !== undefined && previous >= SONNET.minimum ? Math.min(previous, tokens) : 0;
    raw += (read * SONNET.read + (tokens - read) * SONNET.write) / 1e6;
    previous = tokens;
  }
  return { billed, raw, saved: raw - billed };
}

const money = (value: number) => `${value < 0 ? '-' : ''}$${Math.abs(value).toFixed(4)}`;
const count = (value: number) => value.toLocaleString('en-US');

/** A table row's cells: columns are two or more spaces apart. */
function rowOf(stdout: string, session: string): string[] {
  const line = stdout.split('\n').find((row) => row.startsWith(`${session} `));
  expect(line, `a row for ${session} in:\n${stdout}`).toBeDefined();
  return (line as string).split(/ {2,}/);
}

let older: string;
let newer: string;

beforeAll(async () => {
  mkdirSync(inspectorDir);
  writeFileSync(join(inspectorDir, 'index.html'), '<!doctype html><title>the inspector</title>');
  process.env.WARPFOLD_INSPECTOR_DIR = inspectorDir;
  const url = await upstream.listen();
  const upstreams = { anthropic: url, openai: url, gemini: url };
  proxy = await startProxy({
    stateDir: join(root, 'state'),
    ceiling: CEILING,
    upstreams,
    token: TOKEN,
    countTokens,
    // one warm session: the older one leaves memory when the newer one calls
    maxWarmSessions: 1,
  });
  empty = await startProxy({ stateDir: join(root, 'empty'), ceiling: CEILING, upstreams, countTokens });
  // a session at a model without a price, then the folded one at claude-sonnet-4-5
  for (let step = 10; step <= 11; step++)
    await call({ ...claudeCodeBody(step, 'unpriced-session'), model: 'mystery-model-7' });
  const verdicts: Array<string | null> = [];
  for (let step = 10; step <= 13; step++) verdicts.push(await call(claudeCodeBody(step, 'sonnet-session')));
  expect(verdicts.filter((verdict) => verdict === 'folded').length).toBeGreaterThanOrEqual(3);
  const list = await fetch(`${proxy.url}/warpfold/sessions`, { headers: { 'x-warpfold-token': TOKEN } });
  const sessions = ((await list.json()) as { sessions: Array<{ session: string }> }).sessions;
  expect(sessions).toHaveLength(2);
  older = sessions.find((entry) => entry.session.includes('unpriced-session'))?.session as string;
  newer = sessions.find((entry) => entry.session.includes('sonnet-session'))?.session as string;
}, 60_000);

afterAll(async () => {
  if (previousInspectorDir === undefined) delete process.env.WARPFOLD_INSPECTOR_DIR;
  else process.env.WARPFOLD_INSPECTOR_DIR = previousInspectorDir;
  await proxy.close();
  await empty.close();
  await upstream.close();
  rmSync(root, { recursive: true, force: true });
});

describe('warpfold inspect --proxy URL', () => {
  it("prints each session's ledger figures and dollars, then serves the most recent session's raw history, live", async () => {
    let inspectorUrl: URL | undefined;
    const served: Array<Record<string, any>> = [];
    const run = await inspect(['--proxy', `${proxy.url}/`, '--token', TOKEN], async (stdout) => {
      const printed = stdout.split('\n').find((line) => line.startsWith('http://127.0.0.1:'));
      if (printed === undefined) return false;
      inspectorUrl = new URL(printed);
      const page = await fetch(inspectorUrl);
      expect(await page.text()).toContain('the inspector');
      const sample = new URL(`/${inspectorUrl.searchParams.get('sample')}`, inspectorUrl);
      served.push((await (await fetch(sample)).json()) as Record<string, any>);
      // read afresh on every load: a new call shows at once
      await call(claudeCodeBody(14, 'sonnet-session'));
      served.push((await (await fetch(sample)).json()) as Record<string, any>);
      return true;
    });
    expect(run.code, run.stderr).toBe(0);

    // the sonnet session: the ledger's sums, and dollars from the provider's usage
    const lines = (await ledgerOf(newer)).slice(0, 4); // the table was printed before the 14th call
    const sum = (pick: (line: LedgerLine) => number | undefined) =>
      lines.reduce((total, line) => total + (pick(line) ?? 0), 0);
    const dollars = expectedDollars(lines);
    const row = rowOf(run.stdout, newer);
    expect(row).toEqual([
      newer,
      'claude-sonnet-4-5-20250929',
      '4',
      count(lines.filter((line) => line.verdict === 'folded').length),
      count(sum((line) => line.rawTokens)),
      count(sum((line) => line.forwardedTokens)),
      count(sum((line) => line.inputTokens)),
      count(sum((line) => line.cacheReadTokens)),
      count(sum((line) => line.cacheWriteTokens)),
      money(dollars.billed),
      money(dollars.raw),
      `${money(dollars.saved)} (${((100 * dollars.saved) / dollars.raw).toFixed(0)}%)`,
    ]);
    expect(sum((line) => line.cacheReadTokens)).toBeGreaterThan(0);
    expect(sum((line) => line.forwardedTokens)).toBeLessThan(sum((line) => line.rawTokens));
    // a model the table does not price is said so, never costed at another's rates
    const unpriced = rowOf(run.stdout, older);
    expect(unpriced.slice(1, 3)).toEqual(['mystery-model-7', '2']);
    expect(unpriced.slice(-3)).toEqual(['unpriced', 'unpriced', 'unpriced']);
    // the total: both sessions' tokens, and the dollars of the priced one, marked as leaving one out
    const olderLines = await ledgerOf(older);
    const total = rowOf(run.stdout, 'total (2 sessions)');
    expect(total[4]).toBe(
      count(sum((line) => line.rawTokens) + olderLines.reduce((n, line) => n + (line.rawTokens ?? 0), 0)),
    );
    expect(total.slice(-3, -1)).toEqual([`${money(dollars.billed)}+`, `${money(dollars.raw)}+`]);
    expect(run.stdout).toMatch(/claude-sonnet-4-5: \$3 in/);

    // the inspector opens the newest session at the ceiling its engine folded under, at its prices
    const overhead =
      countTokens(JSON.stringify(claudeCodeBody(13).system)) + countTokens(JSON.stringify(claudeCodeBody(13).tools));
    expect(inspectorUrl?.searchParams.get('ceiling')).toBe(String(CEILING - overhead));
    expect(inspectorUrl?.searchParams.get('price')).toBe('claude-sonnet-4-5');
    expect(inspectorUrl?.searchParams.get('pending')).toBe('1');
    expect(served[0]).toMatchObject({ session: newer, ceiling: CEILING, engineCeiling: CEILING - overhead });
    expect(served[0].messages).toEqual(claudeCodeBody(13, 'sonnet-session').messages);
    expect(served[1].messages).toEqual(claudeCodeBody(14, 'sonnet-session').messages);
    expect(run.stderr).toContain(`session ${newer}: the ${served[0].messages.length} messages of its last call`);
  }, 60_000);

  it('still serves a FILE as before (the server now serves a file or a live session)', async () => {
    const file = join(REPO_ROOT, 'test/fixtures/sessions/msa-ds-chat-dev-pydicom__pydicom-901.json');
    let sampled = '';
    const run = await inspect([file], async (stdout) => {
      const printed = stdout.split('\n').find((line) => line.startsWith('http://127.0.0.1:'));
      if (printed === undefined) return false;
      const url = new URL(printed);
      sampled = await (await fetch(new URL(`/${url.searchParams.get('sample')}`, url))).text();
      return true;
    });
    expect(run.code, run.stderr).toBe(0);
    expect(sampled).toBe(readFileSync(file, 'utf8'));
  }, 60_000);

  it('says what is wrong: a bad URL, no proxy there, FILE with --proxy, a missing token, no sessions, an unknown or cold session', async () => {
    // a port nothing listens on: taken, then given back
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const cases: Array<[string[], RegExp]> = [
      [['--proxy', 'localhost:8787'], /--proxy: expected an http:\/\/ or https:\/\/ URL/],
      [['--proxy', 'not a url'], /--proxy: expected the proxy's URL/],
      [['--proxy', closed], /cannot reach the proxy at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/],
      [['session.jsonl', '--proxy', proxy.url], /a FILE or --proxy URL, not both/],
      [['--proxy', proxy.url, '--ceiling', '9000'], /--ceiling does not go with --proxy/],
      [['session.jsonl', '--session', 'x'], /--session goes with --proxy URL only/],
      [['--proxy', proxy.url], /wants its token: pass --token T/],
      [['--proxy', empty.url], /has no sessions yet/],
      [['--proxy', proxy.url, '--token', TOKEN, '--session', 'nope'], /has no session "nope"/],
      // the newer session's calls pushed the older one out of memory (one warm session)
      [['--proxy', proxy.url, '--token', TOKEN, '--session', older], /is not warm: .*only while the session is warm/],
    ];
    for (const [args, message] of cases) {
      const run = await inspect(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stderr).toContain("Run 'warpfold inspect --help'");
      expect(run.stdout.includes('http://127.0.0.1:'), args.join(' ')).toBe(false);
    }
  }, 60_000);
});
