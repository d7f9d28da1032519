/// <reference lib="webworker" />
/**
 * The fold runs here, off the page's main thread: the o200k tokenizer, FoldSession and the
 * baselines. The page asks for a replay (with progress) and then for the view at a call.
 */
import type { ProviderMessage } from '../../../src/index.ts';
import type { CallView, WorkerReply, WorkerRequest } from './protocol.ts';
import { remoteFolder } from './remote-folder.ts';
import { replayHistory, type Replay } from './replay.ts';
import { describeView, indexReceipts, type ReceiptIndex } from './view-items.ts';

declare const self: DedicatedWorkerGlobalScope;

let latestJob = 0;
let current: { job: number; replay: Replay; positions: Map<ProviderMessage, number>; receipts: ReceiptIndex } | null =
  null;

const post = (reply: WorkerReply) => self.postMessage(reply);
/** Yield to the worker's event loop so a newer request can cancel this replay. */
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function fold(request: Extract<WorkerRequest, { type: 'fold' }>): Promise<void> {
  const started = performance.now();
  post({ type: 'progress', job: request.job, done: 0, total: 0, phase: 'loading the o200k tokenizer' });
  let lastYield = performance.now();
  const folder = request.remote
    ? remoteFolder(request.remote, request.settings, `inspector-${Date.now().toString(36)}-${request.job}`)
    : undefined;
  const replay = await replayHistory(
    request.history,
    request.settings,
    async (done, total) => {
      if (performance.now() - lastYield < 50) return true;
      post({ type: 'progress', job: request.job, done, total, phase: 'folding' });
      await pause();
      lastYield = performance.now();
      return request.job === latestJob;
    },
    folder,
  );
  if (!replay || request.job !== latestJob) return;
  const positions = new Map<ProviderMessage, number>();
  request.history.forEach((message, index) => positions.set(message, index));
  if (request.remote) {
    // an endpoint's view holds copies: raw messages are found by their JSON
    const byJson = new Map<string, number>();
    request.history.forEach((message, index) => byJson.set(JSON.stringify(message), index));
    for (const outcome of replay.outcomes)
      for (const message of outcome.messages) {
        const index = byJson.get(JSON.stringify(message));
        if (index !== undefined) positions.set(message, index);
      }
  }
  const receipts = replay.session.receipts();
  current = { job: request.job, replay, positions, receipts: indexReceipts(receipts) };
  post({
    type: 'result',
    job: request.job,
    result: {
      calls: replay.calls,
      strategies: replay.strategies,
      receipts,
      dialect: detectDialectName(request.history),
      foldMilliseconds: Math.round(performance.now() - started),
      ...(request.remote ? { remote: `remote ${request.remote.url}` } : {}),
    },
  });
}

function detectDialectName(history: readonly ProviderMessage[]): string {
  for (const message of history) {
    const record = message as Record<string, unknown>;
    if (Array.isArray(record.parts) || record.role === 'model') return 'gemini';
    if (
      Array.isArray(record.content) &&
      record.content.some((block: { type?: string }) => block?.type === 'tool_use' || block?.type === 'tool_result')
    )
      return 'anthropic';
  }
  return 'openai';
}

function view(request: Extract<WorkerRequest, { type: 'view' }>): void {
  if (!current || current.job !== request.job) return;
  const outcome = current.replay.outcomes[request.call - 1];
  if (!outcome) return;
  const described: CallView = { call: request.call, items: describeView(outcome, current.positions, current.receipts) };
  post({ type: 'view', job: request.job, view: described });
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  if (request.type === 'fold') {
    latestJob = request.job;
    fold(request).catch((error: unknown) =>
      post({
        type: 'error',
        job: request.job,
        message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      }),
    );
  } else view(request);
};
