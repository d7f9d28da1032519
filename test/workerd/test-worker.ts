import { DurableObject } from 'cloudflare:workers';

export { FoldSessionObject } from './fold-session-object.ts';

/** A bare SQLite-backed Durable Object: tests reach its storage through `runInDurableObject`. */
export class TestObject extends DurableObject {}

export default {
  async fetch(): Promise<Response> {
    return new Response('warpfold workerd test worker');
  },
};
