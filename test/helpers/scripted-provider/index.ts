import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { AnthropicCacheSimulator, GeminiCacheSimulator, OpenAICacheSimulator } from '../provider-cache.ts';
import { answerAnthropic } from './anthropic-messages.ts';
import { answerChatCompletions } from './chat-completions.ts';
import { answerGemini } from './gemini.ts';
import { answerResponses } from './openai-responses.ts';
import { DEFAULT_STEPS } from './script.ts';
import { type Exchange, JSON_HEADERS, type ProviderReply, type ScriptContext } from './types.ts';

export { DEFAULT_STEPS, FINAL_ANSWER_PREFIX, SCRIPTED_PROMPT, STEP_MARKER, writeScriptData } from './script.ts';
export type { Exchange, ExchangeKind } from './types.ts';

export type ProviderApi = 'anthropic' | 'openai-responses' | 'openai-chat' | 'gemini';

/** One request as the provider received it, and what it answered. */
export interface LoggedRequest {
  readonly index: number;
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body's bytes as they arrived (compressed, if they were). */
  readonly rawBody: Buffer;
  /** The body decoded to text. */
  readonly text: string;
  readonly json: any;
  readonly api: ProviderApi | 'websocket' | 'unknown';
  readonly status: number;
  readonly exchange: Exchange | undefined;
}

/** An error the provider sends instead of its next scripted tool call or answer. */
export interface Fault {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Only a request to this API takes it; any API by default. */
  readonly api?: ProviderApi;
  /** Only a reply for this step or a later one takes it (a call deep enough in the session to be folded). */
  readonly fromStep?: number;
}

export interface ScriptedProviderOptions {
  /** Tool calls before the final answer; 42 by default. */
  readonly steps?: number;
  /**
   * Anthropic only: end each user turn with a text answer after this many tool calls, and go on
   * with the next step when the client sends its next turn (a multi-turn conversation).
   */
  readonly turnSteps?: number;
  /**
   * Awaited before a scripted reply is written: a test can hold a request here (to kill a proxy
   * while its call is in flight), or count.
   */
  readonly beforeReply?: (request: LoggedRequest) => Promise<void> | void;
}

export interface ScriptedProvider {
  /** `http://127.0.0.1:PORT`, no trailing slash; every API answers under it, with or without `/v1`. */
  readonly url: string;
  readonly requests: LoggedRequest[];
  /** Queue errors: each one replaces one scripted tool call or answer, in order. */
  failNext(...faults: Fault[]): void;
  close(): Promise<void>;
}

/** The script's replies to the requests it logged, by kind. */
export const scriptedCalls = (requests: readonly LoggedRequest[]) =>
  requests.filter((request) => request.exchange?.kind === 'tool-call');

const decode = (raw: Buffer, encoding: string | undefined): Buffer => {
  switch (encoding?.trim().toLowerCase()) {
    case undefined:
    case '':
    case 'identity':
      return raw;
    case 'gzip':
      return gunzipSync(raw);
    case 'deflate':
      return inflateSync(raw);
    case 'br':
      return brotliDecompressSync(raw);
    default:
      throw new Error(`unsupported content-encoding ${encoding}`);
  }
};

function route(path: string): ProviderApi | 'unknown' {
  if (/\/messages(\/count_tokens)?$/.test(path)) return 'anthropic';
  if (/\/responses$/.test(path)) return 'openai-responses';
  if (/\/chat\/completions$/.test(path)) return 'openai-chat';
  if (/\/models\/[^/:]+:(streamGenerateContent|generateContent|countTokens)$/.test(path)) return 'gemini';
  return 'unknown';
}

function answer(api: ProviderApi, path: string, json: any, context: ScriptContext): ProviderReply {
  switch (api) {
    case 'anthropic':
      return answerAnthropic(path, json, context);
    case 'openai-responses':
      return answerResponses(json, context);
    case 'openai-chat':
      return answerChatCompletions(json, context);
    case 'gemini':
      return answerGemini(path, json, context);
  }
}

/**
 * A provider on 127.0.0.1 that plays the fixed script (./script.ts) in every API a client speaks:
 * Anthropic Messages, OpenAI Responses and Chat Completions, Gemini generateContent and
 * streamGenerateContent. It logs every request whole, simulates the provider's prompt cache and
 * reports the usage in its replies. A WebSocket upgrade gets 426, so Codex falls back to HTTP.
 */
export async function startScriptedProvider(options: ScriptedProviderOptions = {}): Promise<ScriptedProvider> {
  const requests: LoggedRequest[] = [];
  const faults: Fault[] = [];
  const context: ScriptContext = {
    steps: options.steps ?? DEFAULT_STEPS,
    turnSteps: options.turnSteps,
    anthropicCache: new AnthropicCacheSimulator(),
    openaiCache: new OpenAICacheSimulator(),
    geminiCache: new GeminiCacheSimulator(),
  };
  const sockets = new Set<Socket>();
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      const rawBody = Buffer.concat(chunks);
      const url = incoming.url ?? '/';
      const path = url.split('?')[0];
      const api = route(path);
      let text = '';
      let json: any = null;
      let reply: ProviderReply;
      try {
        text = decode(rawBody, incoming.headers['content-encoding']).toString('utf8');
        json = text === '' ? null : JSON.parse(text);
        if (api === 'unknown' || incoming.method !== 'POST')
          reply = {
            status: 404,
            headers: JSON_HEADERS,
            chunks: [JSON.stringify({ error: { message: `no scripted route for ${incoming.method} ${path}` } })],
            exchange: { kind: 'text' },
          };
        else reply = answer(api, path, json, context);
      } catch (error) {
        reply = {
          status: 400,
          headers: JSON_HEADERS,
          chunks: [JSON.stringify({ error: { message: `scripted provider: ${String(error)}` } })],
          exchange: { kind: 'text' },
        };
      }
      const faultAt =
        reply.exchange.kind === 'tool-call' || reply.exchange.kind === 'final'
          ? faults.findIndex(
              (fault) =>
                (fault.api === undefined || fault.api === api) &&
                (fault.fromStep === undefined || (reply.exchange.step ?? -1) >= fault.fromStep),
            )
          : -1;
      if (faultAt >= 0) {
        const [fault] = faults.splice(faultAt, 1);
        reply = {
          status: fault.status,
          headers: { ...JSON_HEADERS, ...fault.headers },
          chunks: [JSON.stringify(fault.body)],
          exchange: { kind: 'fault', step: reply.exchange.step },
        };
      }
      const logged: LoggedRequest = {
        index: requests.length,
        method: incoming.method ?? 'GET',
        url,
        path,
        headers: incoming.headers,
        rawBody,
        text,
        json,
        api,
        status: reply.status,
        exchange: reply.exchange,
      };
      requests.push(logged);
      try {
        await options.beforeReply?.(logged);
      } catch {
        // a hook that failed must not leave the client hanging: the reply still goes out
      }
      if (outgoing.destroyed) return;
      outgoing.writeHead(reply.status, reply.headers);
      for (const chunk of reply.chunks) outgoing.write(chunk);
      outgoing.end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (incoming, socket: Socket) => {
    requests.push({
      index: requests.length,
      method: incoming.method ?? 'GET',
      url: incoming.url ?? '/',
      path: (incoming.url ?? '/').split('?')[0],
      headers: incoming.headers,
      rawBody: Buffer.alloc(0),
      text: '',
      json: null,
      api: 'websocket',
      status: 426,
      exchange: undefined,
    });
    socket.end('HTTP/1.1 426 Upgrade Required\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (...queued) => {
      faults.push(...queued);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
