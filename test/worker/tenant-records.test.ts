import { describe, expect, it } from 'vitest';
import { deriveEpisodesFromMessages } from '../../src/episodes/index.ts';
import { serializeTaskRail, sprint, startTaskRail, unwrapTaskRail } from '../../src/task-rail/index.ts';
import { call, freshId, json, realHistory, tokenFor } from './worker-client.ts';

const rail = (id: string) => unwrapTaskRail(startTaskRail({ id, title: 'Fix the pydicom issue', now: 1_000 }));

describe('episodes', () => {
  it("records a history's episodes and finds them by path, for this tenant only", async () => {
    const sessionId = freshId('episodes');
    const expected = deriveEpisodesFromMessages(realHistory, { sessionId });
    const recorded = await json(await call('POST', '/v1/episodes', { body: { sessionId, messages: realHistory } }));
    expect(recorded.ids).toEqual(expected.map((episode) => episode.id));
    expect(recorded.recorded).toBe(expected.length);
    const path = expected.flatMap((episode) => episode.files.map((file) => file.path))[0];
    expect(path).toBeDefined();
    const found = await json(await call('GET', `/v1/episodes?path=${encodeURIComponent(path)}&sessionId=${sessionId}`));
    expect(found.episodes.length).toBeGreaterThan(0);
    for (const episode of found.episodes)
      expect(episode.files.map((file: { path: string }) => file.path)).toContain(path);
    const all = await json(await call('GET', `/v1/episodes?sessionId=${sessionId}`));
    expect(all.episodes.map((episode: { id: string }) => episode.id).sort()).toEqual(
      expected.map((episode) => episode.id).sort(),
    );
    const other = await json(await call('GET', `/v1/episodes?sessionId=${sessionId}`, { token: tokenFor('tenant-b') }));
    expect(other.episodes).toEqual([]);
    const byPathElsewhere = await json(
      await call('GET', `/v1/episodes?path=${encodeURIComponent(path)}`, { token: tokenFor('tenant-b') }),
    );
    expect(
      byPathElsewhere.episodes.filter((episode: { sessionId: string }) => episode.sessionId === sessionId),
    ).toEqual([]);
  });

  it('400 names a bad query or body field', async () => {
    expect((await json(await call('GET', '/v1/episodes?limit=0'))).error.field).toBe('limit');
    expect((await json(await call('POST', '/v1/episodes', { body: { messages: [] } }))).error.field).toBe('sessionId');
  });
});

describe('task rails', () => {
  it('stores, reads and deletes a rail per tenant; an older revision is refused with 409', async () => {
    const id = freshId('rail');
    const first = serializeTaskRail(rail(id));
    const put = await call('PUT', `/v1/rails/${id}`, { body: first });
    expect(put.status).toBe(200);
    expect(await json(put)).toEqual(first);
    const next = serializeTaskRail(
      unwrapTaskRail(sprint(rail(id), { steps: [{ title: 'reproduce' }, { title: 'patch' }], now: 2_000 })),
    );
    expect(next.revision).toBeGreaterThan(first.revision);
    expect((await call('PUT', `/v1/rails/${id}`, { body: next })).status).toBe(200);
    const stale = await call('PUT', `/v1/rails/${id}`, { body: first });
    expect(stale.status).toBe(409);
    expect((await json(stale)).error.serverRevision).toBe(next.revision);
    expect(await json(await call('GET', `/v1/rails/${id}`))).toEqual(next);
    expect((await call('GET', `/v1/rails/${id}`, { token: tokenFor('tenant-b') })).status).toBe(404);
    expect((await call('DELETE', `/v1/rails/${id}`, { token: tokenFor('tenant-b') })).status).toBe(404);
    expect((await call('DELETE', `/v1/rails/${id}`)).status).toBe(204);
    expect((await call('GET', `/v1/rails/${id}`)).status).toBe(404);
  });

  it('400 for a rail that does not restore, naming its field, or whose id is not the path id', async () => {
    const id = freshId('rail-bad');
    const broken = { ...serializeTaskRail(rail(id)), steps: [{ id: 's1', title: 'x', status: 'dancing' }] };
    const response = await json(await call('PUT', `/v1/rails/${id}`, { body: broken }));
    expect(response.error.code).toBe('invalid-request');
    expect(response.error.field).toMatch(/^steps\[0\]/);
    const elsewhere = await json(await call('PUT', `/v1/rails/${id}`, { body: serializeTaskRail(rail('another-id')) }));
    expect(elsewhere.error.field).toBe('id');
  });
});
