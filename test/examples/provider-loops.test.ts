import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicCacheSimulator, OpenAICacheSimulator } from '../helpers/provider-cache.ts';
import { startProviderServer, type ProviderServer } from '../helpers/provider-server.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROJECT = fileURLToPath(new URL('../../src/transcripts', import.meta.url));
const FILES = readdirSync(PROJECT)
  .filter((name) => name.endsWith('.ts'))
  .sort();

/** Runs an example the way a user would, with tsx; `warpfold` resolves to the sources through tsconfig.test.json. */
function runExample(example: string, env: Record<string, string>) {
  return run(
    process.execPath,
    [`${ROOT}node_modules/tsx/dist/cli.mjs`, '--tsconfig', `${ROOT}tsconfig.test.json`, `${ROOT}examples/${example}`],
    { cwd: ROOT, env: { ...process.env, ...env }, timeout: 120_000, maxBuffer: 10_000_000 },
  );
}

let server: ProviderServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

type Block = { type: string; id?: string; tool_use_id?: string; cache_control?: unknown };
const blocksOf = (content: unknown): Block[] =>
  typeof content === 'string' ? [{ type: 'text' }] : (content as Block[]);

describe('examples/anthropic-loop.ts against a local server answering as the Messages API', () => {
  it('runs the whole tool loop: folds, keeps every tool pair valid, marks at most four breakpoints, reads from cache', async () => {
    const cache = new AnthropicCacheSimulator();
    server = await startProviderServer((request, index) => {
      const body = request.body as {
        model: string;
        tools: Block[];
        system: Block[];
        messages: Array<{ role: string; content: unknown }>;
      };
      const usage = cache.usage(body);
      const step =
        index === 0
          ? { type: 'tool_use', id: `toolu_${index}`, name: 'list_directory', input: { path: '.' } }
          : index <= FILES.length
            ? { type: 'tool_use', id: `toolu_${index}`, name: 'read_file', input: { path: FILES[index - 1] } }
            : null;
      const content =
        step === null
          ? [{ type: 'text', text: `Read ${FILES.length} modules.` }]
          : [{ type: 'text', text: `Looking at ${String((step.input as { path: string }).path)}.` }, step];
      return {
        id: `msg_${index}`,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content,
        stop_reason: step === null ? 'end_turn' : 'tool_use',
        stop_sequence: null,
        usage: { ...usage, output_tokens: 30 },
      };
    });
    const { stdout } = await runExample('anthropic-loop.ts', {
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: server.url,
      WARPFOLD_ROOT: PROJECT,
      WARPFOLD_CEILING: '4000',
    });
    expect(stdout).toContain(`final answer:\nRead ${FILES.length} modules.`);
    const requests = server.requests;
    expect(requests).toHaveLength(FILES.length + 2);
    for (const request of requests) {
      expect(request.url).toBe('/v1/messages');
      expect(request.headers['x-api-key']).toBe('test-key');
      expect(request.headers['anthropic-version']).toBe('2023-06-01');
      const body = request.body as {
        tools: Block[];
        system: Block[];
        messages: Array<{ role: string; content: unknown }>;
      };
      expect(JSON.stringify(body).split('"cache_control"').length - 1).toBeLessThanOrEqual(4);
      // What the API enforces: each message's tool results answer exactly the previous message's calls.
      body.messages.forEach((message, at) => {
        const results = blocksOf(message.content)
          .filter((block) => block.type === 'tool_result')
          .map((block) => block.tool_use_id);
        const calls =
          at === 0
            ? []
            : blocksOf(body.messages[at - 1].content)
                .filter((block) => block.type === 'tool_use')
                .map((block) => block.id);
        if (results.length > 0 || calls.length > 0) expect(results.sort()).toEqual(calls.sort());
      });
    }
    const texts = requests.map((request) => JSON.stringify(request.body));
    expect(texts.some((text) => text.includes('[warpfold fold'))).toBe(true);
    const reads = stdout.match(/cache read (\d+)/g)!.map((match) => Number(match.split(' ')[2]));
    expect(reads.filter((read) => read > 0).length).toBeGreaterThan(FILES.length / 2);
    expect(stdout).toMatch(/\d+ calls, \d+ input tokens, \d+ read from cache/);
  }, 180_000);

  it('without an API key it says what to set and exits with status 2', async () => {
    const failure = await runExample('anthropic-loop.ts', { ANTHROPIC_API_KEY: '' }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain('Set ANTHROPIC_API_KEY');
  }, 180_000);
});

describe('examples/openai-loop.ts with the real openai client against a local server answering as Chat Completions', () => {
  it('runs the whole tool loop with a stable prompt_cache_key and reads cached tokens', async () => {
    const cache = new OpenAICacheSimulator();
    const keys = new Set<string>();
    server = await startProviderServer((request, index) => {
      const body = request.body as {
        model: string;
        prompt_cache_key: string;
        tools: unknown[];
        messages: Array<{ role: string }>;
      };
      keys.add(body.prompt_cache_key);
      const usage = cache.usage(body);
      const call =
        index === 0
          ? { name: 'list_directory', path: '.' }
          : index <= FILES.length
            ? { name: 'read_file', path: FILES[index - 1] }
            : null;
      const message =
        call === null
          ? { role: 'assistant', content: `Read ${FILES.length} modules.`, refusal: null }
          : {
              role: 'assistant',
              content: null,
              refusal: null,
              tool_calls: [
                {
                  id: `call_${index}`,
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify({ path: call.path }) },
                },
              ],
            };
      return {
        id: `chatcmpl-${index}`,
        object: 'chat.completion',
        created: 1_764_583_200,
        model: body.model,
        choices: [{ index: 0, message, logprobs: null, finish_reason: call === null ? 'stop' : 'tool_calls' }],
        usage: {
          prompt_tokens: usage.prompt_tokens,
          completion_tokens: 20,
          total_tokens: usage.prompt_tokens + 20,
          prompt_tokens_details: { cached_tokens: usage.cached_tokens, audio_tokens: 0 },
        },
      };
    });
    const { stdout } = await runExample('openai-loop.ts', {
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: `${server.url}/v1`,
      WARPFOLD_ROOT: PROJECT,
      WARPFOLD_CEILING: '4000',
    });
    expect(stdout).toContain(`final answer:\nRead ${FILES.length} modules.`);
    expect(server.requests).toHaveLength(FILES.length + 2);
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^warpfold-/);
    for (const request of server.requests) {
      expect(request.url).toBe('/v1/chat/completions');
      expect(request.headers.authorization).toBe('Bearer test-key');
      const messages = (request.body as { messages: Array<{ role: string }> }).messages;
      expect(messages[0].role).toBe('system');
    }
    expect(server.requests.some((request) => JSON.stringify(request.body).includes('[warpfold fold'))).toBe(true);
    const cached = stdout.match(/cached (\d+)\)/g)!.map((match) => Number(/\d+/.exec(match)![0]));
    expect(cached.some((tokens) => tokens > 0)).toBe(true);
  }, 180_000);
});
