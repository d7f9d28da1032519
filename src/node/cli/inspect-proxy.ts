import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LedgerLine } from '../../gateway/ledger.ts';
import type { SessionSummary } from '../../gateway/sessions-endpoint.ts';
import { findModelPrice } from '../../tokens/price-table.ts';
import type { CliOutput } from './cli-output.ts';
import { holdInspector } from './hold-inspector.ts';
import { inspectorFolder, startInspectorServer } from './inspector-server.ts';
import { describePrice, priceForSession } from './price-class.ts';
import { createProxyClient, proxyUrl } from './proxy-client.ts';
import { proxySessionsTable, type ProxySessionRow } from './proxy-sessions-table.ts';
import { proxySpend } from './proxy-spend.ts';
import { EXIT_FILE_FAILED, EXIT_OK, UsageError } from './usage-error.ts';

export interface InspectProxyOptions {
  /** `--proxy URL`, as typed. */
  readonly proxy: string;
  readonly session?: string;
  readonly token?: string;
  readonly port?: number;
  readonly open: boolean;
}

function latestModel(lines: readonly LedgerLine[]): string | undefined {
  for (let index = lines.length - 1; index >= 0; index--)
    if (lines[index].model !== undefined) return lines[index].model;
  return undefined;
}

/** A file name for the page to show: the session id with what a path would mangle replaced. */
const pageName = (session: string) => `${session.replace(/[^\w.-]+/g, '-')}.json`;

function chooseSession(sessions: readonly SessionSummary[], wanted: string | undefined, url: string): string {
  if (wanted === undefined) return sessions[sessions.length - 1].session;
  if (sessions.some((summary) => summary.session === wanted)) return wanted;
  const known = sessions
    .slice(-5)
    .map((summary) => summary.session)
    .join(', ');
  throw new UsageError(`the proxy at ${url} has no session "${wanted}"; its latest: ${known}`, 'inspect');
}

/**
 * `warpfold inspect --proxy URL`: one row per session of a running proxy, from its ledger and the
 * provider's own usage, then the inspector with one warm session's raw history loaded at the
 * ceiling its engine folds under. The engine is deterministic, so the inspector's replay shows the
 * views the proxy forwarded (docs/cli.md says where they can differ).
 */
export async function inspectProxy(
  options: InspectProxyOptions,
  output: CliOutput,
  signal?: AbortSignal,
): Promise<number> {
  const client = createProxyClient(proxyUrl(options.proxy), options.token);
  // oldest first: the most recent session is the last row, next to the URL
  const sessions = (await client.sessions()).sort((a, b) => a.lastTime.localeCompare(b.lastTime));
  if (sessions.length === 0)
    throw new UsageError(
      `the proxy at ${client.url} has no sessions yet (a session starts with a call over its ceiling)`,
      'inspect',
    );
  const chosen = chooseSession(sessions, options.session, client.url);
  const prices = new Map<string, string>();
  const priceOf = (model: string | undefined) => {
    const price = model === undefined ? null : findModelPrice(model);
    if (price !== null) prices.set(price.model, describePrice(price));
    return price;
  };
  const rows: ProxySessionRow[] = [];
  for (const summary of sessions) {
    const lines = await client.lines(summary.session);
    rows.push({ summary, model: latestModel(lines), spend: proxySpend(lines, priceOf) });
  }
  output.stdout.write(proxySessionsTable(rows, [...prices.values()]));

  const history = await client.history(chosen);
  const folder = inspectorFolder();
  if (!existsSync(join(folder, 'index.html'))) {
    output.warn(
      `the built inspector is missing at ${folder} (run npm run build:inspector in a checkout, or set WARPFOLD_INSPECTOR_DIR)`,
    );
    return EXIT_FILE_FAILED;
  }
  const price = priceForSession(undefined, history.model ?? undefined);
  const ceiling =
    history.ceiling === null
      ? ''
      : `, the call's ceiling ${history.ceiling.toLocaleString('en-US')} less system and tools`;
  output.warn(
    `session ${chosen}: the ${history.messages.length} messages of its last call, folded under ${history.engineCeiling.toLocaleString('en-US')}${ceiling}; prices ${price?.model ?? "unpriced: the benchmark's sonnet-class shown"}`,
  );
  let server;
  try {
    server = await startInspectorServer(
      { name: pageName(chosen), read: () => client.historyText(chosen) },
      folder,
      options.port,
      // pending: the history ends with the proxy's latest call, which the inspector replays too
      { ceiling: String(history.engineCeiling), ...(price === null ? {} : { price: price.model }), pending: '1' },
    );
  } catch (error) {
    output.warn(`cannot listen on 127.0.0.1${options.port ? `:${options.port}` : ''}: ${(error as Error).message}`);
    return EXIT_FILE_FAILED;
  }
  await holdInspector(server, output, options.open, signal);
  return EXIT_OK;
}
