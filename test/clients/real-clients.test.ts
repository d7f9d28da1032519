import { afterEach, describe, expect, it } from 'vitest';
import { FINAL_ANSWER_PREFIX, scriptedCalls, startScriptedProvider } from '../helpers/scripted-provider/index.ts';
import { type ClientName, makeSandbox, RUNNERS, type Sandbox } from './agent-runs.ts';
import {
  billedInputUnits,
  CLIENT_API,
  cacheShare,
  foldedSessionFindings,
  headerProblems,
  pairCalls,
  runProxiedSession,
} from './proxied-session.ts';
import { pairingProblems, signedPieces } from './wire-checks.ts';

const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.remove();
});

const CLIENTS: ClientName[] = ['claude', 'codex', 'gemini', 'pi'];
/** What each client's direct session billed, to set the proxied session's bill beside it in the log. */
const directBills = new Map<ClientName, number>();

/** One line per session for the log: what ran, how long, what the provider saw. */
const report = (label: string, values: Record<string, unknown>) =>
  console.log(`[clients] ${label} ${JSON.stringify(values)}`);

describe.each(CLIENTS)('%s against the scripted provider', (client) => {
  const api = CLIENT_API[client];

  it('runs the 42-step script straight against the provider: real shell commands, then the final answer', async () => {
    const provider = await startScriptedProvider();
    const sandbox = makeSandbox();
    sandboxes.push(sandbox);
    try {
      const run = await RUNNERS[client]({ baseUrl: provider.url, sandbox });
      const calls = scriptedCalls(provider.requests);
      report(`${client} direct`, {
        exit: run.exitCode,
        wallMs: run.wallMs,
        requests: provider.requests.length,
        toolCalls: calls.length,
        kinds: provider.requests.reduce<Record<string, number>>((counts, request) => {
          const kind = request.exchange?.kind ?? request.api;
          counts[kind] = (counts[kind] ?? 0) + 1;
          return counts;
        }, {}),
        cacheReadShare: Number(cacheShare(provider.requests, api).toFixed(3)),
        billedInputUnits: billedInputUnits(provider.requests, api),
      });
      directBills.set(client, billedInputUnits(provider.requests, api));
      expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
      expect(run.stdout).toContain(FINAL_ANSWER_PREFIX);
      expect(calls.length).toBeGreaterThanOrEqual(40);
      // every step ran once and in order: the client fed each real command's output back
      expect(calls.map((request) => request.exchange!.step)).toEqual(calls.map((_, index) => index));
      expect(provider.requests.every((request) => request.api === api || request.api === 'gemini')).toBe(true);
      expect(provider.requests.every((request) => request.status === 200)).toBe(true);
      for (const request of provider.requests.filter((logged) => logged.exchange?.kind === 'tool-call'))
        expect(pairingProblems(api, request.json)).toEqual([]);
      // outputs of 14–29 KB reached the provider: the history grew past 300 KB (Codex keeps ~12 KB of each, then compacts)
      const largest = provider.requests.reduce((big, request) =>
        request.rawBody.length > big.rawBody.length ? request : big,
      );
      expect(largest.rawBody.length).toBeGreaterThan(300_000);
      // the provider's signed pieces come back (Claude Code: thinking signatures; Codex: encrypted reasoning; Gemini: thoughtSignature)
      if (client !== 'pi') expect(signedPieces(api, largest.json).length).toBeGreaterThan(30);
    } finally {
      await provider.close();
    }
  });

  it('through warpfold proxy at a 40,000 ceiling: bounded, paired, cache-stable, signed pieces and overhead untouched', async () => {
    const session = await runProxiedSession({ client });
    sandboxes.push(session.sandbox);
    const findings = foldedSessionFindings(session, api);
    report(`${client} proxy`, {
      exit: session.run.exitCode,
      wallMs: session.run.wallMs,
      ...findings,
      problems: findings.problems.slice(0, 12),
      problemCount: findings.problems.length,
      ledgerLines: session.ledger.length,
      sessionsStatus: session.sessions.status,
      billedVersusDirect: directBills.has(client)
        ? Number((findings.billedInputUnits / directBills.get(client)!).toFixed(3))
        : undefined,
    });
    expect(session.run.exitCode, session.run.stderr.slice(-2000)).toBe(0);
    expect(session.run.stdout).toContain(FINAL_ANSWER_PREFIX);
    expect(findings.toolCalls).toBeGreaterThanOrEqual(40);
    // folding really ran: the raw history went far past the ceiling, and most calls were folded
    expect(findings.maxRawTokens).toBeGreaterThan(2 * 40_000);
    expect(findings.folded).toBeGreaterThan(findings.calls / 2);
    expect(findings.problems).toEqual([]);
    expect(session.sessions.status).toBe(200);
    expect(JSON.stringify(session.sessions.body)).toContain(
      String(session.ledger.find((line) => line.session)?.session),
    );
  });

  it('--shadow forwards exactly the bytes and headers the client sent, and records what folding would have sent', async () => {
    const session = await runProxiedSession({ client, shadow: true, provider: { steps: 16 } });
    sandboxes.push(session.sandbox);
    const pairs = pairCalls(session);
    report(`${client} shadow`, {
      exit: session.run.exitCode,
      wallMs: session.run.wallMs,
      calls: pairs.length,
      verdicts: [...new Set(pairs.map((pair) => pair.sent.verdict))],
      ledgerLines: session.ledger.length,
    });
    expect(session.run.exitCode, session.run.stderr.slice(-2000)).toBe(0);
    expect(pairs.length).toBeGreaterThanOrEqual(17);
    for (const pair of pairs) {
      expect(pair.forwarded.rawBody.equals(pair.sent.raw)).toBe(true);
      expect(pair.forwarded.url).toBe(pair.sent.url);
      expect(headerProblems(pair.sent.headers, pair.forwarded.headers)).toEqual([]);
      expect(pair.sent.verdict).toMatch(/^shadow\b/);
    }
    expect(session.ledger.length).toBe(pairs.length);
    // what warpfold would have sent: under the ceiling once the history outgrew it
    const late = session.ledger.filter((line) => typeof line.rawTokens === 'number' && line.rawTokens > 40_000);
    expect(late.length).toBeGreaterThan(0);
    expect(late.every((line) => line.forwardedTokens <= 40_000)).toBe(true);
  });
});
