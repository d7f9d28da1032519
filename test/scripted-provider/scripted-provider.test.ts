import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FINAL_ANSWER_PREFIX,
  type ScriptedProvider,
  STEP_MARKER,
  startScriptedProvider,
} from '../helpers/scripted-provider/index.ts';
import { dataFileBytes, dataFileText, lastStepSeen, scriptStep } from '../helpers/scripted-provider/script.ts';

const providers: ScriptedProvider[] = [];
afterEach(async () => {
  for (const provider of providers.splice(0)) await provider.close();
});
const start = async (steps: number) => {
  const provider = await startScriptedProvider({ steps });
  providers.push(provider);
  return provider;
};

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : body instanceof Buffer ? new Uint8Array(body) : JSON.stringify(body),
  });
  return { status: answer.status, text: await answer.text() };
};
/** The `data:` payloads of an SSE body, parsed. */
const events = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)));

describe('the script', () => {
  it('prints 14–29 KB a step, and a request shows the last step the client ran', () => {
    for (let index = 0; index < 42; index++) {
      expect(dataFileBytes(index)).toBeGreaterThanOrEqual(14_000);
      expect(dataFileBytes(index)).toBeLessThanOrEqual(29_000);
      expect(dataFileText(index, dataFileBytes(index)).length).toBeLessThan(29_300);
      expect(scriptStep(index).command).toContain(`${STEP_MARKER} ${index}`);
    }
    expect(lastStepSeen('no marker')).toBe(-1);
    expect(lastStepSeen(`${scriptStep(3).command} … ${scriptStep(11).command} … ${scriptStep(7).command}`)).toBe(11);
  });
});

describe('scripted provider', () => {
  it('Anthropic: a signed thinking block and a Bash call per step, then the final answer, with simulated cache usage', async () => {
    const provider = await start(2);
    const tools = [{ name: 'Bash', input_schema: { properties: { command: {}, description: {} } } }];
    const messages: any[] = [
      { role: 'user', content: [{ type: 'text', text: 'go', cache_control: { type: 'ephemeral' } }] },
    ];
    for (let step = 0; step < 2; step++) {
      const reply = await post(`${provider.url}/v1/messages?beta=true`, {
        model: 'm',
        stream: true,
        thinking: { type: 'adaptive' },
        system: [{ type: 'text', text: 'system' }],
        tools,
        messages,
      });
      const parsed = events(reply.text);
      expect(parsed[0].type).toBe('message_start');
      const signature = parsed.find((event) => event.delta?.type === 'signature_delta').delta.signature;
      const input = JSON.parse(parsed.find((event) => event.delta?.type === 'input_json_delta').delta.partial_json);
      expect(input.command).toBe(scriptStep(step).command);
      const id = parsed.find((event) => event.content_block?.type === 'tool_use').content_block.id;
      messages.push(
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: '', signature },
            { type: 'tool_use', id, name: 'Bash', input },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'x'.repeat(20_000) }] },
      );
      messages.at(-1).content[0].cache_control = { type: 'ephemeral' };
      delete messages.at(-3).content[0].cache_control;
    }
    const final = await post(`${provider.url}/v1/messages`, { model: 'm', tools, messages });
    expect(JSON.parse(final.text).content[0].text).toContain(FINAL_ANSWER_PREFIX);
    expect(provider.requests.map((logged) => logged.exchange?.kind)).toEqual(['tool-call', 'tool-call', 'final']);
    // the second call reads what the first wrote at its breakpoint
    expect(provider.requests[1].exchange?.usage?.cache_read_input_tokens).toBeGreaterThan(0);
    const compacted = await post(`${provider.url}/v1/messages`, {
      tools,
      messages: [...messages, { role: 'user', content: 'CRITICAL: Respond with TEXT ONLY. Summarize.' }],
    });
    expect(JSON.parse(compacted.text).content[0].text).toContain(`${STEP_MARKER} 1`);
    const counted = await post(`${provider.url}/v1/messages/count_tokens`, { tools, messages });
    expect(JSON.parse(counted.text).input_tokens).toBeGreaterThan(10_000);
  });

  it('Responses, Chat Completions and Gemini each call their shell tool, and answer tool-less and JSON-mode calls with text', async () => {
    const provider = await start(5);
    const responses = events(
      (
        await post(`${provider.url}/v1/responses`, {
          stream: true,
          include: ['reasoning.encrypted_content'],
          tools: [{ type: 'function', name: 'exec_command' }],
          input: [{ role: 'user', content: 'go' }],
        })
      ).text,
    );
    const done = responses.filter((event) => event.type === 'response.output_item.done').map((event) => event.item);
    expect(done.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    expect(JSON.parse(done[1].arguments).cmd).toBe(scriptStep(0).command);
    expect(responses.at(-1).response.usage.input_tokens).toBeGreaterThan(0);
    const checkpoint = await post(`${provider.url}/v1/responses`, {
      tools: [],
      input: [{ role: 'user', content: `${scriptStep(3).command} CONTEXT CHECKPOINT COMPACTION` }],
    });
    expect(JSON.parse(checkpoint.text).output[0].content[0].text).toContain(`${STEP_MARKER} 3`);

    const chat = events(
      (
        await post(`${provider.url}/v1/chat/completions`, {
          stream: true,
          tools: [{ type: 'function', function: { name: 'bash' } }],
          messages: [{ role: 'user', content: 'go' }],
        })
      ).text,
    );
    expect(JSON.parse(chat[1].choices[0].delta.tool_calls[0].function.arguments).command).toBe(scriptStep(0).command);
    expect(chat.at(-1).usage.prompt_tokens).toBeGreaterThan(0);

    const gemini = events(
      (
        await post(`${provider.url}/v1beta/models/g:streamGenerateContent?alt=sse`, {
          tools: [{ functionDeclarations: [{ name: 'run_shell_command' }] }],
          contents: [{ role: 'user', parts: [{ text: 'go' }] }],
        })
      ).text,
    );
    const part = gemini[0].candidates[0].content.parts[0];
    expect(part.functionCall.args.command).toBe(scriptStep(0).command);
    expect(typeof part.thoughtSignature).toBe('string');
    const router = await post(`${provider.url}/v1beta/models/lite:generateContent`, {
      contents: [{ role: 'user', parts: [{ text: 'route' }] }],
      generationConfig: {
        responseMimeType: 'application/json',
        responseJsonSchema: {
          type: 'OBJECT',
          properties: {
            complexity_score: { type: 'INTEGER' },
            next_speaker: { type: 'STRING', enum: ['model', 'user'] },
          },
        },
      },
    });
    expect(JSON.parse(JSON.parse(router.text).candidates[0].content.parts[0].text)).toEqual({
      complexity_score: 1,
      next_speaker: 'user',
    });
  });

  it('reads gzip bodies, replaces scripted replies with queued faults, and refuses WebSocket upgrades with 426', async () => {
    const provider = await start(5);
    const body = {
      tools: [{ type: 'function', function: { name: 'bash' } }],
      messages: [{ role: 'user', content: 'go' }],
    };
    provider.failNext({ status: 429, body: { error: { message: 'slow down' } } });
    const failed = await post(`${provider.url}/v1/chat/completions`, gzipSync(JSON.stringify(body)), {
      'content-encoding': 'gzip',
    });
    expect(failed).toEqual({ status: 429, text: JSON.stringify({ error: { message: 'slow down' } }) });
    const ok = await post(`${provider.url}/v1/chat/completions`, body);
    expect(ok.status).toBe(200);
    expect(provider.requests.map((logged) => logged.exchange?.kind)).toEqual(['fault', 'tool-call']);
    const status = await new Promise<number>((resolve, reject) => {
      const upgrade = request(`${provider.url}/v1/responses`, {
        headers: { connection: 'Upgrade', upgrade: 'websocket' },
      });
      upgrade.on('response', (answer) => resolve(answer.statusCode ?? 0));
      upgrade.on('upgrade', () => reject(new Error('upgraded')));
      upgrade.on('error', reject);
      upgrade.end();
    });
    expect(status).toBe(426);
  });
});
