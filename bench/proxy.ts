/**
 * `npm run bench:proxy` (not part of the default bench): 16 sessions at once, each replaying a
 * 60-step Claude-Code-shaped session (14–29 KB tool outputs) through `warpfold proxy` at a 40,000
 * ceiling, against the same scripted provider reached directly. Reports added time to first byte
 * and total time per request (p50, p99), heap per warm session, and billed cost and cache-read
 * share from the provider's simulated cache, through the proxy against direct.
 * Flags: --sessions N (16), --steps N (60), --ceiling N (40000).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startProxy } from '../src/node/proxy/start-proxy.ts';
import { createTokenCounter } from '../src/tokens/count-tokens.ts';
import { resolveModelPrice } from '../src/tokens/price-table.ts';
import { CLAUDE_HEADERS, claudeCodeBody } from '../test/helpers/agent-requests.ts';
import { ScriptedUpstream } from '../test/helpers/scripted-upstream.ts';

const { values } = parseArgs({
  options: { sessions: { type: 'string' }, steps: { type: 'string' }, ceiling: { type: 'string' } },
});
const SESSIONS = Number(values.sessions ?? 16);
const STEPS = Number(values.steps ?? 60);
const CEILING = Number(values.ceiling ?? 40_000);
const MODEL = 'claude-sonnet-4-5-20250929';

interface Timing {
  readonly ttfb: number;
  readonly total: number;
}

interface Usage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
}

/** The helper's outputs run 24–47 KB; this scale makes them the 14–29 KB a real Claude Code session's are. */
const OUTPUT_SCALE = 0.6;

/** Session `id`'s request at `step`: its own first message, so sessions share no cache. */
function requestBody(id: string, step: number): string {
  const body = claudeCodeBody(step, id, OUTPUT_SCALE) as { messages: Array<{ content: Array<{ text?: string }> }> };
  body.messages[0].content[1].text += ` (session ${id})`;
  return JSON.stringify(body);
}

async function replay(baseUrl: string, id: string, timings: Timing[], usages: Usage[]): Promise<void> {
  for (let step = 1; step <= STEPS; step++) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/v1/messages?beta=true`, {
      method: 'POST',
      headers: CLAUDE_HEADERS,
      body: requestBody(id, step),
    });
    const reader = response.body?.getReader();
    let first = 0;
    let text = '';
    const decoder = new TextDecoder();
    for (;;) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) break;
      if (first === 0) first = performance.now();
      text += decoder.decode(chunk.value, { stream: true });
    }
    const ended = performance.now();
    if (response.status !== 200) throw new Error(`step ${step}: status ${response.status}: ${text.slice(0, 200)}`);
    timings.push({ ttfb: first - started, total: ended - started });
    const start = text.split('\n').find((line) => line.startsWith('data:') && line.includes('message_start'));
    if (start) usages.push(JSON.parse(start.slice(5)).message.usage as Usage);
  }
}

async function run(baseUrl: string): Promise<{ timings: Timing[]; usages: Usage[] }> {
  const timings: Timing[] = [];
  const usages: Usage[] = [];
  await Promise.all(
    Array.from({ length: SESSIONS }, (_, index) =>
      replay(baseUrl, `${String(index).padStart(8, '0')}-bench`, timings, usages),
    ),
  );
  return { timings, usages };
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

function billed(usages: readonly Usage[]): { dollars: number; readShare: number } {
  const price = resolveModelPrice(MODEL);
  const perToken = price.inputPerMillion / 1e6;
  let dollars = 0;
  let read = 0;
  let input = 0;
  for (const usage of usages) {
    dollars +=
      usage.input_tokens * perToken +
      usage.cache_read_input_tokens * perToken * price.cacheReadMultiplier +
      usage.cache_creation_input_tokens * perToken * price.cacheWriteMultiplier +
      (usage.output_tokens * price.outputPerMillion) / 1e6;
    read += usage.cache_read_input_tokens;
    input += usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
  }
  return { dollars, readShare: input === 0 ? 0 : read / input };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

const root = mkdtempSync(join(tmpdir(), 'warpfold-bench-proxy-'));
const direct = new ScriptedUpstream();
const throughProxy = new ScriptedUpstream();
const directUrl = await direct.listen();
const proxiedUrl = await throughProxy.listen();
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const proxy = await startProxy({
  stateDir: join(root, 'state'),
  ceiling: CEILING,
  maxWarmSessions: Math.max(64, SESSIONS),
  upstreams: { anthropic: proxiedUrl },
  countTokens: createTokenCounter(),
});
try {
  const directRun = await run(directUrl);
  direct.calls.length = 0;
  const proxyRun = await run(proxy.url);
  await proxy.gateway.idle();
  // the stand-in provider keeps every request it received: not the proxy's heap
  throughProxy.calls.length = 0;
  gc?.();
  const heapPerSession = (process.memoryUsage().heapUsed - heapBefore) / proxy.gateway.warmSessions;
  const lines = readFileSync(join(root, 'state', 'ledger.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { foldMs?: number; verdict: string; epochReason?: string });
  const foldTimes = lines.flatMap((line) => (line.foldMs === undefined ? [] : [line.foldMs]));
  const epochs = lines.filter((line) => line.epochReason !== undefined).length;
  const folded = lines.filter((line) => line.verdict === 'folded').length;
  const row = (name: string, pick: (timing: Timing) => number) => {
    const d = directRun.timings.map(pick);
    const p = proxyRun.timings.map(pick);
    return `| ${name} | ${ms(percentile(d, 0.5))} | ${ms(percentile(p, 0.5))} | ${ms(percentile(p, 0.5) - percentile(d, 0.5))} | ${ms(percentile(d, 0.99))} | ${ms(percentile(p, 0.99))} | ${ms(percentile(p, 0.99) - percentile(d, 0.99))} |`;
  };
  const directCost = billed(directRun.usages);
  const proxyCost = billed(proxyRun.usages);
  const perSession = (dollars: number) => `$${(dollars / SESSIONS).toFixed(2)}`;
  const table = [
    `${SESSIONS} sessions at once × ${STEPS} steps, ceiling ${CEILING.toLocaleString('en-US')}, ${MODEL} prices, simulated Anthropic cache`,
    '',
    '| per request | direct p50 | proxy p50 | added p50 | direct p99 | proxy p99 | added p99 |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    row('time to first byte', (timing) => timing.ttfb),
    row('total', (timing) => timing.total),
    '',
    '| billed per session | direct | proxy | proxy / direct |',
    '| --- | --- | --- | --- |',
    `| cost | ${perSession(directCost.dollars)} | ${perSession(proxyCost.dollars)} | ${(proxyCost.dollars / directCost.dollars).toFixed(2)}× |`,
    `| cache reads / input | ${(directCost.readShare * 100).toFixed(1)}% | ${(proxyCost.readShare * 100).toFixed(1)}% | |`,
    '',
    `fold time per call (engine): p50 ${ms(percentile(foldTimes, 0.5))}, p99 ${ms(percentile(foldTimes, 0.99))}; ${folded} of ${lines.length} calls folded, ${epochs} epochs`,
    `heap per warm session: ${(heapPerSession / 1e6).toFixed(1)} MB${gc ? '' : ' (run with --expose-gc for a settled figure)'}`,
    "clients, proxy and the stand-in provider share this one Node process: request times include the provider's cache simulation and every session's work",
    'goals: added ≤ 10 ms at p50 and ≤ 50 ms at p99; cost ≤ 0.6× direct; cache reads ≥ 85% of input',
  ];
  process.stdout.write(`${table.join('\n')}\n`);
} finally {
  await proxy.close();
  await direct.close();
  await throughProxy.close();
  rmSync(root, { recursive: true, force: true });
}
