import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { FoldSession } from '../../src/index.ts';
import { sessionObjectName } from '../../worker/durable-object-names.ts';
import { historyDigest } from '../../worker/history-digest.ts';
import { PIECE_CHARS } from '../../worker/history-log.ts';
import { call, freshId, json, realHistory, tokenFor } from './worker-client.ts';

const options = { pressureCeiling: 4_000 };
const CLOCK = 1_760_000_000_000;

/** What the library gives, run here for the same calls: the server must answer exactly this. */
function localViews(cuts: number[]): string[] {
  const session = new FoldSession({ ...options, freeze: true, now: () => CLOCK });
  return cuts.map((cut) => JSON.stringify(session.prepare(realHistory.slice(0, cut)).messages));
}

describe('POST /v1/sessions/:id/prepare', () => {
  it('folds whole histories and appends into the same views the library gives, with digests the client can compute', async () => {
    const id = freshId('views');
    const cuts = [10, 40, 80, 124];
    const expected = localViews(cuts);
    let digest: string | undefined;
    for (const [step, cut] of cuts.entries()) {
      const previous = step === 0 ? 0 : cuts[step - 1];
      const body =
        step % 2 === 0
          ? { messages: realHistory.slice(0, cut), options, now: CLOCK }
          : { append: realHistory.slice(previous, cut), prefixDigest: digest, now: CLOCK };
      const response = await call('POST', `/v1/sessions/${id}/prepare`, { body });
      expect(response.status).toBe(200);
      const result = await json(response);
      expect(JSON.stringify(result.messages)).toBe(expected[step]);
      expect(result.length).toBe(cut);
      expect(result.digest).toBe(await historyDigest(realHistory.slice(0, cut)));
      digest = result.digest;
    }
    const summary = await json(await call('GET', `/v1/sessions/${id}`));
    expect(summary).toMatchObject({ sessionId: id, length: 124, digest, options });
    expect(summary.stats.epochs).toBeGreaterThan(0);
    expect(summary.stats.viewTokens).toBeLessThanOrEqual(4_000);
  });

  it('restores a forgotten object from storage and goes on with the same views', async () => {
    const id = freshId('cold');
    const expected = localViews([60, 90, 124]);
    const views: string[] = [];
    for (const [from, to] of [
      [0, 60],
      [60, 90],
      [90, 124],
    ]) {
      await call('POST', `/v1/sessions/${id}/forget`);
      const result = await json(
        await call('POST', `/v1/sessions/${id}/prepare`, {
          body: { append: realHistory.slice(from, to), options, now: CLOCK },
        }),
      );
      views.push(JSON.stringify(result.messages));
    }
    expect(views).toEqual(expected);
  });

  it('answers 409 with the server digest and length when the client believes otherwise, and changes nothing', async () => {
    const id = freshId('conflict');
    const first = await json(
      await call('POST', `/v1/sessions/${id}/prepare`, { body: { messages: realHistory.slice(0, 20) } }),
    );
    const stale = await call('POST', `/v1/sessions/${id}/prepare`, {
      body: { append: realHistory.slice(20, 22), prefixDigest: await historyDigest(realHistory.slice(0, 19)) },
    });
    expect(stale.status).toBe(409);
    expect((await json(stale)).error).toMatchObject({ code: 'conflict', serverDigest: first.digest, serverLength: 20 });
    const forked = realHistory
      .slice(0, 22)
      .map((message, index) => (index === 5 ? { ...message, content: 'rewritten' } : message));
    const fork = await call('POST', `/v1/sessions/${id}/prepare`, { body: { messages: forked } });
    expect(fork.status).toBe(409);
    expect((await json(fork)).error.message).toMatch(/differs/);
    const shorter = await call('POST', `/v1/sessions/${id}/prepare`, { body: { messages: realHistory.slice(0, 10) } });
    expect(shorter.status).toBe(409);
    expect(await json(await call('GET', `/v1/sessions/${id}`))).toMatchObject({ length: 20, digest: first.digest });
  });

  it('serializes concurrent appends: one wins per prefix digest, the rest get 409; blind appends all land in some order', async () => {
    const id = freshId('race');
    const base = await json(
      await call('POST', `/v1/sessions/${id}/prepare`, { body: { messages: realHistory.slice(0, 10) } }),
    );
    const racers = await Promise.all(
      [0, 1, 2, 3, 4].map((n) =>
        call('POST', `/v1/sessions/${id}/prepare`, {
          body: { append: [realHistory[10 + n]], prefixDigest: base.digest },
        }),
      ),
    );
    expect(racers.map((response) => response.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const blind = await Promise.all(
      [0, 1, 2].map(() =>
        call('POST', `/v1/sessions/${id}/prepare`, { body: { append: [{ role: 'user', content: 'next' }] } }),
      ),
    );
    const lengths = (await Promise.all(blind.map((response) => json(response)))).map((result) => result.length).sort();
    expect(lengths).toEqual([12, 13, 14]);
    expect((await json(await call('GET', `/v1/sessions/${id}`))).length).toBe(14);
  });

  it('leaves nothing behind when the library refuses a message: 400 names it, the next call goes on', async () => {
    const id = freshId('rollback');
    await call('POST', `/v1/sessions/${id}/prepare`, { body: { messages: realHistory.slice(0, 6) } });
    const bad = await call('POST', `/v1/sessions/${id}/prepare`, {
      body: { append: [realHistory[6], { role: 'user', content: 42 }] },
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toMatchObject({ code: 'invalid-request', field: 'append[1]' });
    expect((await json(await call('GET', `/v1/sessions/${id}`))).length).toBe(6);
    const next = await json(
      await call('POST', `/v1/sessions/${id}/prepare`, { body: { append: realHistory.slice(6, 8) } }),
    );
    expect(next.digest).toBe(await historyDigest(realHistory.slice(0, 8)));
  });

  it('stores the raw history in chunks whose pieces fit a SQLite value, and reads a huge message back whole', async () => {
    const id = freshId('chunks');
    const huge = { role: 'tool', tool_call_id: 'x', content: `${'é🙂'.repeat(PIECE_CHARS / 2)}end` };
    const history = [
      ...realHistory.slice(0, 3),
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'x', type: 'function', function: { name: 'bash', arguments: '{"command":"cat big"}' } }],
      },
      huge,
    ];
    const response = await call('POST', `/v1/sessions/${id}/prepare`, { body: { messages: history } });
    expect(response.status).toBe(200);
    const stub = env.SESSIONS.getByName(sessionObjectName('tenant-a', id));
    const rows = await runInDurableObject(stub, (_object, state) =>
      state.storage.sql
        .exec<{ first_index: number; piece: number; size: number }>(
          'SELECT first_index, piece, length(text) AS size FROM raw_history ORDER BY first_index, piece',
        )
        .toArray(),
    );
    expect(rows.length).toBeGreaterThan(1);
    expect(Math.max(...rows.map((row) => row.size))).toBeLessThanOrEqual(PIECE_CHARS);
    await call('POST', `/v1/sessions/${id}/forget`);
    const summary = await json(await call('GET', `/v1/sessions/${id}`));
    expect(summary.digest).toBe(await historyDigest(history));
  });

  it('deletes a session with its history', async () => {
    const id = freshId('delete');
    await call('POST', `/v1/sessions/${id}/prepare`, { body: { messages: realHistory.slice(0, 4) } });
    expect((await call('DELETE', `/v1/sessions/${id}`)).status).toBe(204);
    expect((await call('GET', `/v1/sessions/${id}`)).status).toBe(404);
    expect((await call('DELETE', `/v1/sessions/${id}`)).status).toBe(404);
    const again = await json(
      await call('POST', `/v1/sessions/${id}/prepare`, { body: { messages: realHistory.slice(0, 2) } }),
    );
    expect(again.length).toBe(2);
  });
});

describe('tenant isolation', () => {
  it("keeps one tenant from reading, deleting or extending another tenant's session of the same id", async () => {
    const id = freshId('shared-name');
    const a = await json(
      await call('POST', `/v1/sessions/${id}/prepare`, { body: { messages: realHistory.slice(0, 12) } }),
    );
    const tokenB = tokenFor('tenant-b');
    expect((await call('GET', `/v1/sessions/${id}`, { token: tokenB })).status).toBe(404);
    expect((await call('DELETE', `/v1/sessions/${id}`, { token: tokenB })).status).toBe(404);
    const appended = await call('POST', `/v1/sessions/${id}/prepare`, {
      token: tokenB,
      body: { append: realHistory.slice(12, 13), prefixDigest: a.digest },
    });
    expect(appended.status).toBe(409);
    expect((await json(appended)).error.serverLength).toBe(0);
    const own = await json(
      await call('POST', `/v1/sessions/${id}/prepare`, { token: tokenB, body: { messages: realHistory.slice(0, 3) } }),
    );
    expect(own.length).toBe(3);
    expect((await json(await call('GET', `/v1/sessions/${id}`))).length).toBe(12);
  });
});

describe('POST /v1/fold', () => {
  it('folds a whole history once, like a fresh library session', async () => {
    const body = { messages: realHistory, options, now: CLOCK };
    const result = await json(await call('POST', '/v1/fold', { body }));
    const local = new FoldSession({ ...options, now: () => CLOCK }).prepare(realHistory);
    expect(JSON.stringify(result.messages)).toBe(JSON.stringify(local.messages));
    expect(result.stats).toEqual(JSON.parse(JSON.stringify(local.stats)));
    expect(result.digest).toBe(await historyDigest(realHistory));
  });
});
