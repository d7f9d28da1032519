// The worker test/storage/fixtures/write-durable-object-fixture.ts bundles and runs in Miniflare: one SQLite-backed object
// that saves the fixture contents through the Durable Object store and answers with its tables.
import { DurableObject } from 'cloudflare:workers';
import { createDurableObjectStore } from '../../src/storage/durable-object.ts';
import { restoreTaskRail } from '../../src/task-rail/restore-task-rail.ts';
import { dumpTables } from '../storage/fixtures/durable-object-dump.ts';
import { fixtureContents } from '../storage/fixtures/fixture-contents.ts';

export class FixtureObject extends DurableObject {
  override async fetch(): Promise<Response> {
    const contents = fixtureContents();
    const store = createDurableObjectStore(this.ctx.storage, {
      onCorruptRecord: (error) => {
        throw error;
      },
    });
    await store.episodes.put(contents.episodes);
    for (const session of contents.sessions)
      for (const state of session.states) await store.sessions.save(session.id, state);
    for (const rail of contents.rails) {
      const restored = restoreTaskRail(rail);
      if (!restored.ok) throw new Error(restored.error.message);
      await store.rails.save(restored.rail);
    }
    return Response.json({ contents, tables: dumpTables(this.ctx.storage.sql) });
  }
}

export default {
  async fetch(_request: Request, env: { FIXTURE: DurableObjectNamespace }): Promise<Response> {
    return env.FIXTURE.get(env.FIXTURE.idFromName('fixture')).fetch('https://fixture/');
  },
};
