import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AnthropicCacheSimulator, OpenAICacheSimulator } from './provider-cache.ts';

/** One call as the provider received it: the exact body text and headers. */
export interface ReceivedCall {
  readonly method: string;
  readonly path: string;
  readonly headers: Headers;
  readonly text: string;
  readonly body: Record<string, unknown> | undefined;
}

export interface ScriptedFailure {
  readonly status: number;
  readonly body: string;
}

/**
 * A provider stand-in for every API the gateway speaks, as a fetch function (in-process) or on a
 * loopback port: answers each call with one short text, streamed as SSE when asked, with usage from
 * a simulated prompt cache; `fail` queues error answers; `holdStream` keeps a stream open until
 * the client goes away (`aborted` counts those).
 */
export class ScriptedUpstream {
  readonly calls: ReceivedCall[] = [];
  readonly failures: ScriptedFailure[] = [];
  readonly anthropicCache = new AnthropicCacheSimulator();
  readonly openaiCache = new OpenAICacheSimulator();
  holdStream = false;
  aborted = 0;
  private server: Server | undefined;

  fail(status: number, body: string): void {
    this.failures.push({ status, body });
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const text = request.method === 'GET' ? '' : await request.text();
    let body: Record<string, unknown> | undefined;
    try {
      body = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
    } catch {
      body = undefined;
    }
    this.calls.push({ method: request.method, path: url.pathname + url.search, headers: request.headers, text, body });
    const failure = this.failures.shift();
    if (failure !== undefined)
      return new Response(failure.body, { status: failure.status, headers: { 'content-type': 'application/json' } });
    if (body === undefined && request.method === 'POST')
      return Response.json({ error: { message: 'unreadable body' } }, { status: 400 });
    if (body === undefined) return Response.json({ object: 'list', data: [] });
    const step = this.calls.length;
    if (url.pathname.endsWith('/count_tokens'))
      return Response.json({ input_tokens: Math.ceil(JSON.stringify(body.messages).length / 4) });
    if (url.pathname === '/v1/messages') return this.anthropic(body, step, request.signal);
    if (url.pathname === '/v1/responses') return this.responses(body, step);
    if (url.pathname === '/v1/chat/completions') return this.chat(body, step);
    if (url.pathname.includes(':generateContent') || url.pathname.includes(':streamGenerateContent'))
      return this.gemini(body, step, url.pathname.includes(':stream'));
    return Response.json({ object: 'list', data: [] });
  };

  private sse(events: ReadonlyArray<{ event?: string; data: unknown }>, signal?: AbortSignal): Response {
    const encoder = new TextEncoder();
    const hold = this.holdStream;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        for (const { event, data } of hold ? events.slice(0, 2) : events)
          controller.enqueue(encoder.encode(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`));
        if (!hold) controller.close();
        else
          signal?.addEventListener('abort', () => {
            this.aborted++;
          });
      },
      cancel: () => {
        this.aborted++;
      },
    });
    return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
  }

  private anthropic(body: Record<string, unknown>, step: number, signal: AbortSignal): Response {
    const usage = { ...this.anthropicCache.usage(body as never), output_tokens: 5 };
    const text = `ok ${step}`;
    const message = {
      id: `msg_${step}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage,
    };
    if (body.stream !== true) return Response.json(message);
    return this.sse(
      [
        {
          event: 'message_start',
          data: {
            type: 'message_start',
            message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
          },
        },
        {
          event: 'content_block_start',
          data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        },
        {
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
        },
        { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
        {
          event: 'message_delta',
          data: {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 5 },
          },
        },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ],
      signal,
    );
  }

  private responses(body: Record<string, unknown>, step: number): Response {
    const cached = this.openaiCache.usage({ tools: body.tools, messages: body.input });
    const usage = {
      input_tokens: cached.prompt_tokens,
      input_tokens_details: { cached_tokens: cached.cached_tokens },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: cached.prompt_tokens + 5,
    };
    const item = {
      id: `msg_${step}`,
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: `ok ${step}`, annotations: [] }],
    };
    const response = {
      id: `resp_${step}`,
      object: 'response',
      created_at: 0,
      status: 'completed',
      model: body.model,
      output: [item],
      usage,
    };
    if (body.stream !== true) return Response.json(response);
    return this.sse([
      {
        event: 'response.created',
        data: {
          type: 'response.created',
          sequence_number: 0,
          response: { ...response, status: 'in_progress', output: [], usage: null },
        },
      },
      {
        event: 'response.output_text.delta',
        data: {
          type: 'response.output_text.delta',
          sequence_number: 1,
          item_id: item.id,
          output_index: 0,
          content_index: 0,
          delta: `ok ${step}`,
        },
      },
      { event: 'response.completed', data: { type: 'response.completed', sequence_number: 2, response } },
    ]);
  }

  private chat(body: Record<string, unknown>, step: number): Response {
    const cached = this.openaiCache.usage({ tools: body.tools, messages: body.messages });
    const usage = {
      prompt_tokens: cached.prompt_tokens,
      completion_tokens: 5,
      total_tokens: cached.prompt_tokens + 5,
      prompt_tokens_details: { cached_tokens: cached.cached_tokens },
    };
    const base = { id: `chatcmpl-${step}`, created: 0, model: body.model };
    if (body.stream !== true)
      return Response.json({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: `ok ${step}` }, finish_reason: 'stop' }],
        usage,
      });
    return this.sse([
      {
        data: {
          ...base,
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta: { role: 'assistant', content: `ok ${step}` }, finish_reason: null }],
          usage: null,
        },
      },
      {
        data: {
          ...base,
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
          usage: null,
        },
      },
      { data: { ...base, object: 'chat.completion.chunk', choices: [], usage } },
    ]);
  }

  private gemini(body: Record<string, unknown>, step: number, streaming: boolean): Response {
    const cached = this.openaiCache.usage({ tools: body.tools, messages: body.contents });
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [{ text: `ok ${step}` }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: cached.prompt_tokens,
        cachedContentTokenCount: cached.cached_tokens,
        candidatesTokenCount: 5,
        totalTokenCount: cached.prompt_tokens + 5,
      },
    };
    return streaming ? this.sse([{ data: chunk }]) : Response.json(chunk);
  }

  /** The same provider on a loopback port. */
  async listen(): Promise<string> {
    this.server = createServer(async (incoming, outgoing) => {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (let index = 0; index + 1 < incoming.rawHeaders.length; index += 2)
        headers.append(incoming.rawHeaders[index], incoming.rawHeaders[index + 1]);
      const controller = new AbortController();
      outgoing.on('close', () => {
        if (!outgoing.writableFinished) controller.abort();
      });
      const method = incoming.method ?? 'GET';
      const response = await this.fetch(
        new Request(`http://127.0.0.1${incoming.url}`, {
          method,
          headers,
          body: method === 'GET' ? null : Buffer.concat(chunks),
          signal: controller.signal,
        }),
      );
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body === null) return void outgoing.end();
      const reader = response.body.getReader();
      outgoing.on('close', () => void reader.cancel().catch(() => undefined));
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          outgoing.write(value);
        }
        outgoing.end();
      } catch {
        outgoing.destroy();
      }
    });
    // a busy test process must not close a kept-alive connection under a client that is about to reuse it
    this.server.keepAliveTimeout = 120_000;
    this.server.requestTimeout = 0;
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
