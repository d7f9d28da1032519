// The storage bench inside workerd (wrangler's local runtime): one request per phase, timed by the
// caller in Node, because a Worker's clock only moves on I/O.
import { DurableObject } from 'cloudflare:workers';
import { createDurableObjectStore } from '../../src/storage/durable-object.ts';
import { createKvStore, type KvNamespaceLike } from '../../src/storage/kv.ts';
import { runStoragePhase, type StoragePhase } from './measure.ts';

interface BenchEnv {
  readonly BENCH_KV: KvNamespaceLike;
  readonly BENCH_OBJECT: { getByName(name: string): { run(work: StoragePhase): Promise<number> } };
}

export class BenchObject extends DurableObject {
  async run(work: StoragePhase): Promise<number> {
    return runStoragePhase(createDurableObjectStore(this.ctx.storage), work);
  }
}

export default {
  async fetch(request: Request, env: BenchEnv): Promise<Response> {
    const url = new URL(request.url);
    const run = url.searchParams.get('run') ?? 'default';
    const work = (await request.json()) as StoragePhase;
    if (url.pathname === '/kv')
      return Response.json({ count: await runStoragePhase(createKvStore(env.BENCH_KV, { prefix: `${run}/` }), work) });
    if (url.pathname === '/durable-object')
      return Response.json({ count: await env.BENCH_OBJECT.getByName(run).run(work) });
    return new Response('not found', { status: 404 });
  },
};
