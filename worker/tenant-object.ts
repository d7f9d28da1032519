import { DurableObject } from 'cloudflare:workers';
import { recordEpisodes, type Episode, type RecordEpisodesResult } from '../src/episodes/index.ts';
import { restoreTaskRail, serializeTaskRail, type SerializedTaskRail } from '../src/task-rail/index.ts';
import { createDurableObjectStore } from '../src/storage/durable-object.ts';
import type { LedgerLine } from '../src/gateway/index.ts';
import type { WarpfoldStorage } from '../src/storage/index.ts';
import { ApiError, settleRpc, type RpcResult } from './api-error.ts';
import { pageOf, type EpisodeCursor } from './episode-page.ts';
import { logEvent } from './log-event.ts';
import type { WorkerBindings } from './worker-bindings.ts';

export interface FindEpisodesCall {
  readonly paths?: readonly string[];
  readonly sessionId?: string;
  readonly limit: number;
  readonly cursor?: EpisodeCursor;
}

/** The gateway ledger keeps a tenant's newest lines, this many; older ones are dropped as new ones come. */
export const MAX_LEDGER_LINES = 20_000;

export interface EpisodePage {
  readonly episodes: Episode[];
  readonly nextCursor: string | null;
}

/**
 * One per tenant, named from the tenant: its episodes and task rails, through the Durable Object
 * storage backend. A tenant's calls reach only its own object, so nothing here can see another
 * tenant's records.
 */
export class TenantObject extends DurableObject<WorkerBindings> {
  private readonly storage: WarpfoldStorage;

  constructor(ctx: DurableObjectState, env: WorkerBindings) {
    super(ctx, env);
    this.storage = createDurableObjectStore(ctx.storage, {
      onCorruptRecord: (error) => logEvent('warn', 'corrupt-record', { error: error.message }),
    });
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS gateway_ledger (seq INTEGER PRIMARY KEY AUTOINCREMENT, session TEXT, line TEXT NOT NULL)',
    );
    ctx.storage.sql.exec('CREATE INDEX IF NOT EXISTS gateway_ledger_session ON gateway_ledger (session, seq)');
  }

  /** One gateway call of this tenant: what it was, what went out, what the provider billed (no header, no body). */
  appendLedgerLine(line: LedgerLine): void {
    const sql = this.ctx.storage.sql;
    sql.exec('INSERT INTO gateway_ledger (session, line) VALUES (?, ?)', line.session ?? null, JSON.stringify(line));
    sql.exec('DELETE FROM gateway_ledger WHERE seq <= (SELECT MAX(seq) FROM gateway_ledger) - ?', MAX_LEDGER_LINES);
  }

  /** The tenant's ledger, oldest first; of one session when `session` is given. */
  ledgerLines(session?: string): LedgerLine[] {
    const rows =
      session === undefined
        ? this.ctx.storage.sql.exec<{ line: string }>('SELECT line FROM gateway_ledger ORDER BY seq')
        : this.ctx.storage.sql.exec<{ line: string }>(
            'SELECT line FROM gateway_ledger WHERE session = ? ORDER BY seq',
            session,
          );
    return rows.toArray().map((row) => JSON.parse(row.line) as LedgerLine);
  }

  recordEpisodes(episodes: readonly Episode[]): Promise<RpcResult<RecordEpisodesResult>> {
    return settleRpc(() => recordEpisodes(this.storage.episodes, episodes));
  }

  /** One page of the tenant's episodes, in the store's order (newest first); `nextCursor` goes on. */
  findEpisodes(call: FindEpisodesCall): Promise<RpcResult<EpisodePage>> {
    return settleRpc(async () => {
      const episodes = call.paths?.length
        ? await this.storage.episodes.findByPaths(call.paths, { limit: (call.cursor?.offset ?? 0) + call.limit + 1 })
        : await this.storage.episodes.list(call.sessionId !== undefined ? { sessionId: call.sessionId } : {});
      const filtered =
        call.sessionId !== undefined ? episodes.filter((episode) => episode.sessionId === call.sessionId) : episodes;
      const page = pageOf(filtered, call.limit, call.cursor);
      return { episodes: page.items, nextCursor: page.nextCursor };
    });
  }

  /** Stores a rail; a rail older than the stored one (lower revision) is refused, never written over it. */
  putRail(id: string, serialized: unknown): Promise<RpcResult<SerializedTaskRail>> {
    return settleRpc(async () => {
      const restored = restoreTaskRail(serialized);
      if (!restored.ok)
        throw new ApiError('invalid-request', restored.error.message, { field: restored.error.field ?? '(body)' });
      const rail = restored.rail;
      if (rail.id !== id)
        throw new ApiError('invalid-request', `the rail's id ${JSON.stringify(rail.id)} is not the id in the path`, {
          field: 'id',
        });
      const stored = await this.storage.rails.load(id);
      if (stored && stored.revision > rail.revision)
        throw new ApiError(
          'conflict',
          `the stored rail is at revision ${stored.revision}, newer than ${rail.revision}`,
          { serverRevision: stored.revision },
        );
      await this.storage.rails.save(rail);
      return serializeTaskRail(rail);
    });
  }

  getRail(id: string): Promise<RpcResult<SerializedTaskRail>> {
    return settleRpc(async () => {
      const rail = await this.storage.rails.load(id);
      if (!rail) throw new ApiError('not-found', `no rail ${JSON.stringify(id)}`);
      return serializeTaskRail(rail);
    });
  }

  deleteRail(id: string): Promise<RpcResult<{ readonly deleted: true }>> {
    return settleRpc(async () => {
      if (!(await this.storage.rails.delete(id))) throw new ApiError('not-found', `no rail ${JSON.stringify(id)}`);
      return { deleted: true as const };
    });
  }
}
