import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type RecordingRelay, startRecordingRelay } from '../helpers/recording-relay.ts';
import { type ProxyProcess, readLedger, startProxy } from '../helpers/proxy-process.ts';
import {
  type LoggedRequest,
  type ProviderApi,
  type ScriptedProvider,
  type ScriptedProviderOptions,
  scriptedCalls,
  startScriptedProvider,
} from '../helpers/scripted-provider/index.ts';
import { type ClientName, type ClientRun, makeSandbox, RUNNERS, type Sandbox } from './agent-runs.ts';
import {
  breakpointCount,
  historyOf,
  otherFieldProblems,
  overheadProblems,
  pairingProblems,
  requestTokens,
  sharedLeadingItems,
  signedProblems,
} from './wire-checks.ts';

export const CEILING = 40_000;

/** The API each client speaks in these tests. */
export const CLIENT_API: Record<ClientName, ProviderApi> = {
  claude: 'anthropic',
  codex: 'openai-responses',
  gemini: 'gemini',
  pi: 'openai-chat',
};

/** One client session through relay → `warpfold proxy` → scripted provider, and everything each saw. */
export interface ProxiedSession {
  readonly run: ClientRun;
  readonly provider: ScriptedProvider;
  readonly relay: RecordingRelay;
  readonly stateDirectory: string;
  readonly ledger: Array<Record<string, any>>;
  /** What the proxy served at `GET /warpfold/sessions` at the end, or the error it gave. */
  readonly sessions: { status: number; body: any };
}

export interface ProxiedOptions {
  readonly client: ClientName;
  readonly shadow?: boolean;
  readonly provider?: ScriptedProviderOptions;
  /** Called once the provider is up (to queue faults). */
  readonly withProvider?: (provider: ScriptedProvider) => void;
  /** Called once the proxy is up, with a way to restart it (the kill test). */
  readonly withProxy?: (proxy: () => ProxyProcess, restart: () => Promise<ProxyProcess>) => void;
}

/** Runs one client session through the proxy and stops everything afterwards, keeping the logs. */
export async function runProxiedSession(options: ProxiedOptions): Promise<ProxiedSession & { sandbox: Sandbox }> {
  const sandbox = makeSandbox(options.provider?.steps);
  const stateDirectory = join(sandbox.root, 'warpfold-state');
  mkdirSync(stateDirectory, { recursive: true });
  const provider = await startScriptedProvider(options.provider);
  options.withProvider?.(provider);
  let proxy = await startProxy({ upstream: provider.url, stateDirectory, shadow: options.shadow });
  const port = proxy.port;
  options.withProxy?.(
    () => proxy,
    async () => {
      proxy = await startProxy({ upstream: provider.url, stateDirectory, shadow: options.shadow, port });
      return proxy;
    },
  );
  const relay = await startRecordingRelay(proxy.url);
  try {
    const run = await RUNNERS[options.client]({ baseUrl: relay.url, sandbox });
    let sessions: { status: number; body: any };
    try {
      const answer = await fetch(`${proxy.url}/warpfold/sessions`);
      const text = await answer.text();
      sessions = {
        status: answer.status,
        body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text,
      };
    } catch (error) {
      sessions = { status: 0, body: String(error) };
    }
    return { run, provider, relay, stateDirectory, ledger: readLedger(stateDirectory), sessions, sandbox };
  } finally {
    await relay.close();
    await proxy.stop();
    await provider.close();
  }
}

/** A client call and the request the provider got for it, in order (the clients in these tests call one at a time). */
export interface ForwardedPair {
  readonly sent: {
    url: string;
    headers: Record<string, any>;
    body: any;
    raw: Buffer;
    verdict: string | undefined;
    /** `x-warpfold-session-id` of the answer: the gateway session the call belongs to. */
    session: string | undefined;
    /** `x-warpfold-epoch` of the answer: set when the call sealed a new prefix. */
    epoch: string | undefined;
  };
  readonly forwarded: LoggedRequest;
}

export function pairCalls(session: ProxiedSession): ForwardedPair[] {
  // a call made while the proxy was down never got past the relay
  const calls = session.relay.calls.filter((call) => call.method === 'POST' && !call.error?.includes('ECONNREFUSED'));
  const forwarded = session.provider.requests.filter((request) => request.method === 'POST');
  if (calls.length !== forwarded.length)
    throw new Error(`the client made ${calls.length} calls but the provider got ${forwarded.length}`);
  return calls.map((call, index) => ({
    sent: {
      url: call.url,
      headers: call.headers,
      body: JSON.parse(call.rawBody.toString('utf8')),
      raw: call.rawBody,
      verdict: call.responseHeaders?.['x-warpfold-verdict'] as string | undefined,
      session: call.responseHeaders?.['x-warpfold-session-id'] as string | undefined,
      epoch: call.responseHeaders?.['x-warpfold-epoch'] as string | undefined,
    },
    forwarded: forwarded[index],
  }));
}

/** Headers a hop may change: the proxy's own connection, the body length it re-counted, and its own headers. */
const HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
export function headerProblems(sent: Record<string, any>, forwarded: Record<string, any>): string[] {
  const names = new Set([...Object.keys(sent), ...Object.keys(forwarded)]);
  return [...names]
    .filter((name) => !HOP_HEADERS.has(name) && !name.startsWith('x-warpfold-'))
    .filter((name) => JSON.stringify(sent[name]) !== JSON.stringify(forwarded[name]))
    .map((name) => `header ${name}: ${name.includes('key') || name === 'authorization' ? '(secret) ' : ''}changed`);
}

/** Every check of a folded session, as a list of problems (empty when it holds), plus the numbers for the report. */
export function foldedSessionFindings(session: ProxiedSession, api: ProviderApi) {
  const pairs = pairCalls(session);
  const problems: string[] = [];
  let maxForwardedTokens = 0;
  let maxRawTokens = 0;
  let folded = 0;
  // a session's folded calls in order; null where a call got no answer (its session and epoch are
  // unknown, so the calls either side of it are not compared)
  const sessionCalls = new Map<string, Array<ForwardedPair | null>>();
  pairs.forEach((pair, index) => {
    const where = `call ${index} (${pair.forwarded.exchange?.kind} ${pair.forwarded.exchange?.step})`;
    if (pair.sent.verdict === undefined) for (const list of sessionCalls.values()) list.push(null);
    if (pair.sent.verdict === undefined || !/^(folded|passthrough|shadow)\b/.test(pair.sent.verdict))
      problems.push(`${where}: verdict header ${String(pair.sent.verdict)}`);
    if (pair.sent.verdict?.startsWith('folded')) folded++;
    const forwardedBody = pair.forwarded.json;
    if (forwardedBody === null) {
      problems.push(`${where}: empty body forwarded`);
      return;
    }
    const tokens = requestTokens(api, forwardedBody);
    maxForwardedTokens = Math.max(maxForwardedTokens, tokens);
    maxRawTokens = Math.max(maxRawTokens, requestTokens(api, pair.sent.body));
    if (tokens > CEILING) problems.push(`${where}: forwarded ${tokens} tokens over the ${CEILING} ceiling`);
    for (const problem of [
      ...pairingProblems(api, forwardedBody),
      ...overheadProblems(api, pair.sent.body, forwardedBody),
      ...otherFieldProblems(api, pair.sent.body, forwardedBody),
      ...signedProblems(api, pair.sent.body, forwardedBody),
      ...headerProblems(pair.sent.headers, pair.forwarded.headers),
    ])
      problems.push(`${where}: ${problem}`);
    if (api === 'anthropic' && breakpointCount(forwardedBody) > 4)
      problems.push(`${where}: ${breakpointCount(forwardedBody)} cache breakpoints`);
    const key = pair.sent.session ?? '';
    if (key !== '' && pair.sent.verdict?.startsWith('folded')) {
      const list = sessionCalls.get(key) ?? [];
      list.push(pair);
      sessionCalls.set(key, list);
    }
  });
  // within an epoch the forwarded history only grows: a call keeps everything the one before it sent
  // but that call's last item (where a client moves its cache mark)
  let prefixBreaks = 0;
  let epochs = 0;
  let sameEpochPairs = 0;
  // each answer says whether its call sealed a new prefix; the ledger is written as answers end,
  // so its lines need not fall in the order the calls were made
  for (const list of sessionCalls.values())
    for (let index = 1; index < list.length; index++) {
      const [previous, call] = [list[index - 1], list[index]];
      if (previous === null || call === null) continue;
      if (call.sent.epoch !== undefined) {
        epochs++;
        continue;
      }
      sameEpochPairs++;
      const earlier = previous.forwarded.json;
      const later = call.forwarded.json;
      const shared = sharedLeadingItems(api, earlier, later);
      if (shared < historyOf(api, earlier).length - 1) {
        prefixBreaks++;
        problems.push(
          `sealed prefix moved within an epoch: call kept ${shared} of ${historyOf(api, earlier).length} items (${call.forwarded.exchange?.kind} ${call.forwarded.exchange?.step})`,
        );
      }
    }
  if (session.ledger.length !== pairs.length)
    problems.push(`ledger has ${session.ledger.length} lines for ${pairs.length} calls`);
  const usage = cacheShare(session.provider.requests, api);
  const epochReasons: Record<string, number> = {};
  for (const line of session.ledger)
    if (line.epochReason !== undefined && line.verdict === 'folded')
      epochReasons[line.epochReason] = (epochReasons[line.epochReason] ?? 0) + 1;
  const answered: Record<string, number> = {};
  for (const pair of pairs)
    if (pair.sent.epoch !== undefined) answered[pair.sent.epoch] = (answered[pair.sent.epoch] ?? 0) + 1;
  const sorted = (counts: Record<string, number>) => JSON.stringify(Object.entries(counts).sort());
  if (sorted(answered) !== sorted(epochReasons))
    problems.push(`the answers' epochs ${sorted(answered)} are not the ledger's ${sorted(epochReasons)}`);
  return {
    epochReasons,
    problems,
    calls: pairs.length,
    toolCalls: scriptedCalls(session.provider.requests).length,
    folded,
    epochs,
    sameEpochPairs,
    prefixBreaks,
    maxForwardedTokens,
    maxRawTokens,
    cacheReadShare: Number(usage.toFixed(3)),
    billedInputUnits: billedInputUnits(session.provider.requests, api),
  };
}

/** Cache reads as a share of all input the provider billed, from the usage it reported. */
export function cacheShare(requests: readonly LoggedRequest[], api: ProviderApi): number {
  let input = 0;
  let read = 0;
  for (const request of requests) {
    const usage = request.exchange?.usage;
    if (usage === undefined || request.exchange?.kind === 'count-tokens') continue;
    if (api === 'anthropic') {
      input += usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
      read += usage.cache_read_input_tokens;
    } else if (api === 'gemini') {
      input += usage.promptTokenCount;
      read += usage.cachedContentTokenCount;
    } else {
      input += usage.input_tokens ?? usage.prompt_tokens;
      read += usage.cached_tokens;
    }
  }
  return input === 0 ? 0 : read / input;
}

/** Input the provider billed, in units of one fresh input token: cache reads and writes at their list rates. */
const RATES: Record<ProviderApi, { read: number; write: number }> = {
  anthropic: { read: 0.1, write: 1.25 },
  'openai-responses': { read: 0.1, write: 1 },
  'openai-chat': { read: 0.1, write: 1 },
  gemini: { read: 0.25, write: 1 },
};
export function billedInputUnits(requests: readonly LoggedRequest[], api: ProviderApi): number {
  let billed = 0;
  for (const request of requests) {
    const usage = request.exchange?.usage;
    if (usage === undefined || request.exchange?.kind === 'count-tokens') continue;
    const rate = RATES[api];
    if (api === 'anthropic')
      billed +=
        usage.input_tokens + rate.read * usage.cache_read_input_tokens + rate.write * usage.cache_creation_input_tokens;
    else if (api === 'gemini')
      billed += usage.promptTokenCount - usage.cachedContentTokenCount + rate.read * usage.cachedContentTokenCount;
    else {
      const input = usage.input_tokens ?? usage.prompt_tokens;
      billed += input - usage.cached_tokens + rate.read * usage.cached_tokens;
    }
  }
  return Math.round(billed);
}
