/**
 * `warpfold/openai-responses` against the real `openai` client: an agent loop over
 * `client.responses.create` talking to a local HTTP server on 127.0.0.1 that answers in the
 * documented Response shape (reasoning items with encrypted content, parallel function calls, a
 * shell call, usage with `input_tokens_details.cached_tokens`). The request bodies the server
 * receives must be the folded input: under the ceiling, sealed prefix byte-identical while hot,
 * reasoning items exactly as the server sent them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FoldSession, FoldInputError, FoldOptionsError, type FoldOutcome } from '../../src/index.ts';
import { foldResponsesInput, readResponsesUsage } from '../../src/providers/openai/index.ts';
import { thrownBy } from '../helpers/thrown.ts';
import { viewTokens } from '../helpers/view-checks.ts';

const CEILING = 4_000;
const STEPS = 32;
/** OpenAI caches prompt prefixes of at least 1,024 tokens, in 128-token increments. */
const CACHE_MINIMUM = 1_024;
const CACHE_INCREMENT = 128;

type Item = Record<string, any>;

interface Exchange {
  readonly input: Item[];
  readonly output: Item[];
  readonly cachedTokens: number;
}

/** The scripted model: each step reasons and calls tools; the last one answers. */
function modelOutput(step: number): Item[] {
  const reasoning = {
    type: 'reasoning',
    id: `rs_${step}`,
    summary: [{ type: 'summary_text', text: `Step ${step}: look at shard ${step}.` }],
    encrypted_content: `gAAAAB${Buffer.from(`opaque-${step}`.repeat(12)).toString('base64')}`,
  };
  if (step === STEPS)
    return [
      reasoning,
      {
        type: 'message',
        id: `msg_${step}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Shard 7 holds the stale index.', annotations: [] }],
      },
    ];
  if (step % 3 === 0)
    return [
      reasoning,
      {
        type: 'shell_call',
        id: `sh_${step}`,
        call_id: `call_${step}_sh`,
        action: { commands: [`grep -c stale /srv/shard-${step}/index.log`] },
        status: 'completed',
      },
    ];
  return [
    reasoning,
    {
      type: 'function_call',
      id: `fc_${step}_a`,
      call_id: `call_${step}_a`,
      name: 'read_log',
      arguments: JSON.stringify({ path: `/srv/shard-${step}/a.log` }),
      status: 'completed',
    },
    {
      type: 'function_call',
      id: `fc_${step}_b`,
      call_id: `call_${step}_b`,
      name: 'read_log',
      arguments: JSON.stringify({ path: `/srv/shard-${step}/b.log` }),
      status: 'completed',
    },
  ];
}

function logText(seed: string, lines: number): string {
  return Array.from(
    { length: lines },
    (_, n) =>
      `${seed} line ${n}: segment ${(n * 2_654_435_761) % 4_294_967_296} checksum ${((n + seed.length) * 40_503).toString(16)} ok`,
  ).join('\n');
}

/** Tokens of the longest item prefix two inputs share, as OpenAI's prompt cache would count it. */
function cachedPrefixTokens(previous: Item[] | undefined, input: Item[]): number {
  if (!previous) return 0;
  let same = 0;
  while (
    same < previous.length &&
    same < input.length &&
    JSON.stringify(previous[same]) === JSON.stringify(input[same])
  )
    same++;
  const tokens = countTokens(JSON.stringify(input.slice(0, same)));
  return tokens < CACHE_MINIMUM ? 0 : tokens - (tokens % CACHE_INCREMENT);
}

function respond(body: Item, exchanges: Exchange[]): Item {
  const step = exchanges.length + 1;
  const output = modelOutput(step);
  const inputTokens = countTokens(JSON.stringify(body.input));
  const cachedTokens = cachedPrefixTokens(exchanges[exchanges.length - 1]?.input, body.input);
  exchanges.push({ input: body.input, output, cachedTokens });
  return {
    id: `resp_${step}`,
    object: 'response',
    created_at: 1_764_590_400 + step,
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: body.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: 'medium', summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: body.tools ?? [],
    top_p: 1,
    truncation: 'disabled',
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: cachedTokens },
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 24 },
      total_tokens: inputTokens + 40,
    },
    user: null,
    metadata: {},
  };
}

describe('foldResponsesInput with the real openai client against a local Responses server', () => {
  let server: Server;
  let baseURL: string;
  const exchanges: Exchange[] = [];
  const outcomes: FoldOutcome[] = [];
  const readings: Array<ReturnType<typeof readResponsesUsage>> = [];
  let history: Item[] = [];

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let raw = '';
      request.on('data', (chunk) => (raw += chunk));
      request.on('end', () => {
        if (request.method !== 'POST' || request.url !== '/v1/responses') {
          response
            .writeHead(404, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: 'not found' } }));
          return;
        }
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(respond(JSON.parse(raw), exchanges)));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

    const client = new OpenAI({ apiKey: 'test-key', baseURL, maxRetries: 0 });
    const session = new FoldSession({ pressureCeiling: CEILING, countTokens, now: () => 1_764_590_400_000 });
    history = [
      { role: 'developer', content: 'You are a storage agent. Read logs with read_log and the shell.' },
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'Find the shard with the stale index.' }],
      },
    ];
    let usage: OpenAI.Responses.ResponseUsage | undefined;
    for (let step = 1; step <= STEPS; step++) {
      const { input, outcome } = foldResponsesInput(session, history as ResponseInputItem[], { usage });
      outcomes.push(outcome);
      const response = await client.responses.create({
        model: 'gpt-5',
        input,
        store: false,
        include: ['reasoning.encrypted_content'],
        tools: [
          {
            type: 'function',
            name: 'read_log',
            parameters: { type: 'object', properties: { path: { type: 'string' } } },
            strict: false,
          },
          { type: 'shell' },
        ],
      });
      usage = response.usage;
      readings.push(readResponsesUsage(usage));
      history = [...history, ...(response.output as Item[])];
      for (const item of response.output as Item[]) {
        if (item.type === 'function_call')
          history.push({
            type: 'function_call_output',
            call_id: item.call_id,
            output: logText(JSON.parse(item.arguments).path, 8),
          });
        if (item.type === 'shell_call')
          history.push({
            type: 'shell_call_output',
            call_id: item.call_id,
            output: [
              { stdout: logText(item.action.commands[0], 8), stderr: '', outcome: { type: 'exit', exit_code: 0 } },
            ],
          });
      }
    }
  }, 60_000);

  afterAll(async () => {
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  });

  it('every request body carries the folded input, under the ceiling, and folds do happen', () => {
    expect(exchanges).toHaveLength(STEPS);
    expect(viewTokens(history, countTokens)).toBeGreaterThan(2.5 * CEILING);
    exchanges.forEach((exchange, step) => {
      expect(exchange.input).toEqual(JSON.parse(JSON.stringify(outcomes[step].messages)));
      expect(viewTokens(exchange.input, countTokens)).toBeLessThanOrEqual(CEILING);
    });
    const folded = exchanges.filter((exchange) => JSON.stringify(exchange.input).includes('[warpfold fold'));
    expect(folded.length).toBeGreaterThan(STEPS / 2);
    // a fold is an input message in the Responses shape
    expect(folded[0].input.find((item) => JSON.stringify(item).includes('[warpfold fold'))).toMatchObject({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text' }],
    });
  });

  it('keeps the sealed prefix byte-identical while the session stays hot, and the cache reports it', () => {
    let hot = 0;
    for (let step = 1; step < STEPS; step++) {
      const outcome = outcomes[step];
      if (!outcome.cacheHot || outcome.sealedBoundary === null) continue;
      hot++;
      const end = outcome.sealedBoundary + 1;
      expect(JSON.stringify(exchanges[step].input.slice(0, end))).toBe(
        JSON.stringify(exchanges[step - 1].input.slice(0, end)),
      );
    }
    expect(hot).toBeGreaterThan(2);
    // the usage reader reads what the server reported, and hot calls over a long prefix hit the cache
    readings.forEach((reading, step) => {
      expect(reading?.cachedTokens).toBe(exchanges[step].cachedTokens);
      expect(reading!.inputTokens).toBe(reading!.cachedTokens + reading!.uncachedTokens);
    });
    expect(readings.filter((reading) => reading!.cachedTokens > 0).length).toBeGreaterThan(2);
  });

  it('sends reasoning items exactly as the server sent them, and never a call without its output', () => {
    const sent = new Map<string, string>();
    for (const exchange of exchanges)
      for (const item of exchange.output) if (item.type === 'reasoning') sent.set(item.id, JSON.stringify(item));
    let seen = 0;
    for (const exchange of exchanges) {
      const calls = new Set<string>();
      const outputs = new Set<string>();
      exchange.input.forEach((item, index) => {
        if (item.type === 'reasoning') {
          seen++;
          expect(JSON.stringify(item)).toBe(sent.get(item.id));
          // a reasoning item is followed by the rest of its step
          expect(['function_call', 'shell_call', 'message']).toContain(exchange.input[index + 1]?.type);
        }
        if (item.type === 'function_call' || item.type === 'shell_call') calls.add(item.call_id);
        if (item.type?.endsWith('_call_output')) {
          expect(calls.has(item.call_id)).toBe(true);
          outputs.add(item.call_id);
        }
      });
      expect([...calls].filter((id) => !outputs.has(id))).toEqual([]);
    }
    expect(seen).toBeGreaterThan(STEPS);
  });
});

describe('readResponsesUsage', () => {
  it('reads cached tokens and the rest', () => {
    expect(
      readResponsesUsage({ input_tokens: 2_000, input_tokens_details: { cached_tokens: 1_536 }, output_tokens: 12 }),
    ).toEqual({
      inputTokens: 2_000,
      cachedTokens: 1_536,
      uncachedTokens: 464,
      outputTokens: 12,
      cachedFraction: 0.768,
    });
    expect(readResponsesUsage({ input_tokens: 10 })).toEqual({
      inputTokens: 10,
      cachedTokens: 0,
      uncachedTokens: 10,
      outputTokens: 0,
      cachedFraction: 0,
    });
    expect(readResponsesUsage(undefined)).toBeUndefined();
    expect(readResponsesUsage(null)).toBeUndefined();
  });

  it('names the bad field', () => {
    expect(() => readResponsesUsage({ input_tokens: -1 })).toThrow(FoldInputError);
    expect(() => readResponsesUsage({ input_tokens: -1 })).toThrow(/usage\.input_tokens/);
    expect(() => readResponsesUsage({ input_tokens: 10, input_tokens_details: { cached_tokens: 11 } })).toThrow(
      /cached_tokens/,
    );
    expect(() => readResponsesUsage({ input_tokens: 10, output_tokens: Number.NaN })).toThrow(/output_tokens/);
  });

  it('is an option error naming the field, never one about the history', () => {
    const error = thrownBy(
      () => readResponsesUsage({ input_tokens: 10, input_tokens_details: { cached_tokens: 11 } }),
      FoldOptionsError,
    );
    expect(error.option).toBe('usage.input_tokens_details.cached_tokens');
    expect(error.message).toBe(
      'options: usage.input_tokens_details.cached_tokens must be a number from 0 to input_tokens, got 11',
    );
    expect(thrownBy(() => readResponsesUsage('12' as never), FoldOptionsError).option).toBe('usage');
  });
});
