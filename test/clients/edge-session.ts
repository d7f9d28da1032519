import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RecordingRelay, startRecordingRelay } from '../helpers/recording-relay.ts';
import {
  type LoggedRequest,
  type ScriptedProvider,
  type ScriptedProviderOptions,
  startScriptedProvider,
} from '../helpers/scripted-provider/index.ts';
import { startWranglerDev, type WranglerDev } from '../helpers/wrangler-dev-process.ts';
import { type ClientName, type ClientRun, makeSandbox, RUNNERS, type Sandbox } from './agent-runs.ts';
import { CEILING, type ProxiedSession } from './proxied-session.ts';

/** Two tenants, fresh tokens every run: nothing secret is committed. */
export interface EdgeTokens {
  readonly teamA: string;
  readonly teamB: string;
}

/** The worker under `wrangler dev`, its state on disk, pointed at a scripted provider on loopback. */
export interface EdgeWorker {
  readonly provider: ScriptedProvider;
  readonly tokens: EdgeTokens;
  readonly stateDirectory: string;
  worker(): WranglerDev;
  /** Kills wrangler's whole process group with SIGKILL and starts it again on the same port and state. */
  killAndRestart(): Promise<WranglerDev>;
  /** Every line wrangler (and workerd under it) printed, across restarts. */
  logs(): string;
  stop(): Promise<void>;
}

export async function startEdgeWorker(provider: ScriptedProvider): Promise<EdgeWorker> {
  const stateDirectory = mkdtempSync(join(tmpdir(), 'warpfold-edge-'));
  const tokens = { teamA: randomBytes(24).toString('base64url'), teamB: randomBytes(24).toString('base64url') };
  const envFile = join(stateDirectory, '.dev.vars');
  writeFileSync(envFile, `WARPFOLD_TOKENS=${JSON.stringify({ [tokens.teamA]: 'team-a', [tokens.teamB]: 'team-b' })}\n`);
  const vars = {
    ANTHROPIC_UPSTREAM: provider.url,
    OPENAI_UPSTREAM: provider.url,
    GEMINI_UPSTREAM: provider.url,
    RATE_LIMIT_REQUESTS: '100000',
  };
  const options = { persistTo: join(stateDirectory, 'state'), envFile, vars };
  let current = await startWranglerDev(options);
  let earlier = '';
  return {
    provider,
    tokens,
    stateDirectory,
    worker: () => current,
    async killAndRestart() {
      const port = Number(new URL(current.url).port);
      earlier += current.output();
      const exited = new Promise<void>((resolve) => current.process.once('exit', () => resolve()));
      process.kill(-(current.process.pid as number), 'SIGKILL');
      await exited;
      current = await startWranglerDev({ ...options, port });
      return current;
    },
    logs: () => earlier + current.output(),
    async stop() {
      await current.stop();
      rmSync(stateDirectory, { recursive: true, force: true });
    },
  };
}

/** Every ledger line of a tenant, through the ledger routes: session by session, each oldest first. */
export async function tenantLedger(worker: WranglerDev, token: string): Promise<Array<Record<string, any>>> {
  const headers = { 'x-warpfold-token': token };
  const list = (await (await fetch(`${worker.url}/warpfold/sessions`, { headers })).json()) as {
    sessions: Array<{ session: string }>;
  };
  const lines: Array<Record<string, any>> = [];
  for (const { session } of list.sessions) {
    const answer = (await (
      await fetch(`${worker.url}/warpfold/sessions/${encodeURIComponent(session)}`, { headers })
    ).json()) as { lines: Array<Record<string, any>> };
    lines.push(...answer.lines);
  }
  return lines;
}

export interface EdgeSessionOptions {
  readonly client: ClientName;
  readonly prefix: '/anthropic' | '/openai';
  readonly provider?: ScriptedProviderOptions;
  /** Called once the worker is up, with the running edge (the kill test). */
  readonly withEdge?: (edge: EdgeWorker) => void;
}

export type EdgeSession = ProxiedSession & {
  sandbox: Sandbox;
  edge: EdgeWorker;
  sessionLines: number;
  /** Calls the client made while wrangler was down (connection refused). */
  refusedCalls: number;
};

/**
 * One real client session through relay → `wrangler dev` (the worker's gateway) → scripted provider,
 * with the gateway token and the 40,000 ceiling in the client's own extra headers.
 */
export async function runEdgeSession(options: EdgeSessionOptions): Promise<EdgeSession> {
  const sandbox = makeSandbox(options.provider?.steps);
  let edge: EdgeWorker | undefined;
  const provider = await startScriptedProvider({
    ...options.provider,
    beforeReply: (request: LoggedRequest) => options.provider?.beforeReply?.(request),
  });
  edge = await startEdgeWorker(provider);
  options.withEdge?.(edge);
  const relay: RecordingRelay = await startRecordingRelay(edge.worker().url);
  try {
    const run: ClientRun = await RUNNERS[options.client]({
      baseUrl: `${relay.url}${options.prefix}`,
      sandbox,
      headers: { 'x-warpfold-token': edge.tokens.teamA, 'x-warpfold-ceiling': String(CEILING) },
    });
    const lines = await tenantLedger(edge.worker(), edge.tokens.teamA);
    // a call the client retried while wrangler was down never reached anything: it is no call of the session
    const reached = relay.calls.filter((call) => !/ECONNREFUSED/.test(call.error ?? ''));
    // a call that started no session leaves no line the ledger routes serve; the others take their
    // session's lines in order, the session named by the answer
    const bySession = new Map<string, Array<Record<string, any>>>();
    for (const line of lines) bySession.set(line.session, [...(bySession.get(line.session) ?? []), line]);
    const ledger = reached
      .filter((call) => call.method === 'POST')
      .map((call) => {
        const session = call.responseHeaders?.['x-warpfold-session-id'] as string | undefined;
        return session === undefined ? { sessionless: true } : (bySession.get(session)?.shift() ?? {});
      });
    let sessions: { status: number; body: any };
    try {
      const answer = await fetch(`${edge.worker().url}/warpfold/sessions`, {
        headers: { 'x-warpfold-token': edge.tokens.teamA },
      });
      sessions = { status: answer.status, body: await answer.json() };
    } catch (error) {
      sessions = { status: 0, body: String(error) };
    }
    return {
      run,
      provider,
      relay: { ...relay, calls: reached },
      refusedCalls: relay.calls.length - reached.length,
      stateDirectory: edge.stateDirectory,
      ledger,
      sessions,
      sandbox,
      edge,
      sessionLines: lines.length,
    };
  } finally {
    await relay.close();
    await provider.close();
  }
}
