import { gatewayJson } from './json-response.ts';
import type { GatewayLedger, LedgerLine } from './ledger.ts';

/** One session's totals, from its ledger lines. */
export interface SessionSummary {
  readonly session: string;
  readonly api: string;
  readonly calls: number;
  readonly folded: number;
  readonly rawTokens: number;
  readonly forwardedTokens: number;
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  readonly outputTokens: number;
  readonly epochs: number;
  readonly firstTime: string;
  readonly lastTime: string;
}

function summarize(session: string, lines: readonly LedgerLine[]): SessionSummary {
  const sum = (pick: (line: LedgerLine) => number | undefined) =>
    lines.reduce((total, line) => total + (pick(line) ?? 0), 0);
  return {
    session,
    api: lines[0].api,
    calls: lines.length,
    folded: lines.filter((line) => line.verdict === 'folded').length,
    rawTokens: sum((line) => line.rawTokens),
    forwardedTokens: sum((line) => line.forwardedTokens),
    inputTokens: sum((line) => line.inputTokens),
    cacheReadTokens: sum((line) => line.cacheReadTokens),
    cacheWriteTokens: sum((line) => line.cacheWriteTokens),
    outputTokens: sum((line) => line.outputTokens),
    epochs: lines.filter((line) => line.epochReason !== undefined).length,
    firstTime: lines[0].time,
    lastTime: lines[lines.length - 1].time,
  };
}

/** `GET /warpfold/sessions`: every session's totals; `/warpfold/sessions/:id`: its ledger lines. */
export async function sessionsResponse(ledger: GatewayLedger, id?: string): Promise<Response> {
  if (id !== undefined) {
    const lines = await ledger.lines(id);
    if (lines.length === 0) return gatewayJson({ error: { message: `no session ${id}` } }, 404);
    return gatewayJson({ session: summarize(id, lines), lines });
  }
  const bySession = new Map<string, LedgerLine[]>();
  for (const line of await ledger.lines()) {
    if (line.session === undefined) continue;
    const list = bySession.get(line.session);
    if (list === undefined) bySession.set(line.session, [line]);
    else list.push(line);
  }
  return gatewayJson({ sessions: [...bySession].map(([session, lines]) => summarize(session, lines)) });
}
