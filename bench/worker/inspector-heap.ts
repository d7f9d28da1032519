// The heap of the worker's isolate, read through the V8 inspector that `wrangler dev` exposes on
// loopback: a heap snapshot first (V8 collects garbage fully before it takes one; workerd never
// answers `HeapProfiler.collectGarbage`), then `Runtime.getHeapUsage`. Every Durable Object of the
// worker runs in that one isolate locally, as the worker itself does, so the growth of its live
// heap while one object holds a session is what that object costs.

export interface HeapUsage {
  readonly usedBytes: number;
  readonly totalBytes: number;
}

interface InspectorTarget {
  readonly id: string;
  readonly title?: string;
  readonly webSocketDebuggerUrl: string;
}

type WebSocketLike = {
  send(data: string): void;
  close(): void;
  addEventListener(type: 'message' | 'open' | 'error', listener: (event: { data?: unknown }) => void): void;
};

type SocketConstructor = new (url: string, init?: { headers?: Record<string, string> }) => WebSocketLike;

function socketConstructor(): SocketConstructor {
  const constructor = (globalThis as { WebSocket?: SocketConstructor }).WebSocket;
  if (!constructor)
    throw new Error('this Node has no WebSocket: run with --experimental-websocket (npm run bench:worker does)');
  return constructor;
}

export async function isolateHeapUsage(inspectorPort: number): Promise<HeapUsage> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as InspectorTarget[];
  if (!targets.length) throw new Error('the inspector lists no isolate');
  const Socket = socketConstructor();
  // wrangler's inspector proxy admits DevTools-like clients only: a loopback Origin (undici's WebSocket takes headers)
  const socket = new Socket(targets[0].webSocketDebuggerUrl, { headers: { Origin: 'http://127.0.0.1' } });
  const pending = new Map<number, (result: Record<string, unknown>) => void>();
  let next = 1;
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
    if (message.id !== undefined) pending.get(message.id)?.(message.result ?? {});
  });
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve());
    socket.addEventListener('error', () => reject(new Error('could not reach the inspector')));
  });
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => reject(new Error(`the inspector did not answer ${method}`)), 120_000);
      pending.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    await send('HeapProfiler.enable');
    // the snapshot's chunks arrive as events and are dropped: only the collection it forces matters
    await send('HeapProfiler.takeHeapSnapshot', { reportProgress: false, captureNumericValue: false });
    const usage = await send('Runtime.getHeapUsage');
    return { usedBytes: Number(usage.usedSize), totalBytes: Number(usage.totalSize) };
  } finally {
    socket.close();
  }
}
