/**
 * `warpfold/ai-sdk` against the real AI SDK: a multi-step `generateText` tool loop over the SDK's
 * own mock language model (`ai/test`). What the model receives at every step must be the
 * session's folded view (converted by the SDK into its provider prompt), under the ceiling, with
 * the sealed prefix byte-identical while the session stays hot.
 */
import {
  generateText,
  jsonSchema,
  modelMessageSchema,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
  type ModelMessage,
} from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { foldPrepareStep, withAnthropicCacheBreakpoint } from '../../src/providers/ai-sdk/index.ts';
import { FoldSession, type FoldOutcome } from '../../src/index.ts';
import { viewTokens } from '../helpers/view-checks.ts';

const CEILING = 4_000;
const STEPS = 24;
const OUTPUT_LINES = 14;

type PromptMessage = { role: string; content: unknown; providerOptions?: Record<string, unknown> };

/** A deterministic, identifier-rich tool output of about `lines` lines. */
function toolOutput(step: number, lines: number): string {
  return Array.from(
    { length: lines },
    (_, n) =>
      `2026-12-01T12:${String(n % 60).padStart(2, '0')}:00Z INFO worker-${step} request ${(step * 7919 + n * 104_729).toString(16).padStart(8, '0')} handled /api/orders/${step}/${n} in ${(n * 37) % 900}ms`,
  ).join('\n');
}

/** role plus the text, calls and results of a message: the same for a ModelMessage and the provider prompt the SDK makes of it. */
function digest(message: PromptMessage | ModelMessage): string {
  const content = message.content;
  if (typeof content === 'string') return `${message.role}|text:${content}`;
  const parts = (content as Array<Record<string, any>>).map((part) => {
    if (part.type === 'text' || part.type === 'reasoning') return `${part.type}:${part.text}`;
    if (part.type === 'tool-call') return `tool-call:${part.toolCallId}:${part.toolName}`;
    if (part.type === 'tool-result') return `tool-result:${part.toolCallId}:${JSON.stringify(part.output)}`;
    return part.type;
  });
  return `${message.role}|${parts.join('|')}`;
}

interface Loop {
  readonly prompts: PromptMessage[][];
  readonly outcomes: FoldOutcome[];
  readonly inputs: ModelMessage[][];
  readonly steps: number;
}

/** Runs the tool loop: every step but the last asks for `bash`; the tool answers with a long log. */
async function runLoop(options: { anthropicCacheControl?: boolean } = {}): Promise<Loop> {
  const session = new FoldSession({ pressureCeiling: CEILING, countTokens, now: () => 1_764_590_400_000 });
  const prompts: PromptMessage[][] = [];
  const outcomes: FoldOutcome[] = [];
  const inputs: ModelMessage[][] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      prompts.push(structuredClone(prompt) as PromptMessage[]);
      const step = prompts.length;
      // the provider counts the view the session sent, plus the tool schema and framing
      const usage = {
        inputTokens: {
          total: viewTokens(outcomes[outcomes.length - 1].messages, countTokens) + 60,
          noCache: undefined,
          cacheRead: undefined,
          cacheWrite: undefined,
        },
        outputTokens: { total: 20, text: 20, reasoning: undefined },
      };
      if (step === STEPS)
        return {
          content: [{ type: 'text', text: 'All orders are handled; the slow path is worker-3.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      return {
        content: [
          {
            type: 'reasoning',
            text: `Step ${step}: the log of worker ${step} comes next.`,
            providerMetadata: { anthropic: { signature: `sig-${step}` } },
          },
          { type: 'text', text: `Checking worker ${step}.` },
          {
            type: 'tool-call',
            toolCallId: `call_${step}`,
            toolName: 'bash',
            input: JSON.stringify({ command: `tail -n 40 /var/log/worker-${step}.log` }),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage,
        warnings: [],
      };
    },
  });
  const prepareStep = foldPrepareStep(session, {
    anthropicCacheControl: options.anthropicCacheControl,
    onPrepared: (outcome) => outcomes.push(outcome),
  });
  const result = await generateText({
    model,
    system: 'You are an operations agent. Read logs with bash.',
    messages: [
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: 'Find the slow worker in the order service.',
            providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
          },
        ],
      },
    ],
    tools: {
      bash: tool({
        description: 'Run a shell command',
        inputSchema: jsonSchema<{ command: string }>({
          type: 'object',
          properties: { command: { type: 'string' } },
          required: ['command'],
        }),
        execute: async ({ command }) => toolOutput(Number(/worker-(\d+)/.exec(command)?.[1] ?? 0), OUTPUT_LINES),
      }),
    },
    stopWhen: stepCountIs(STEPS),
    prepareStep: (step) => {
      inputs.push(step.messages);
      return prepareStep(step);
    },
  });
  return { prompts, outcomes, inputs, steps: result.steps.length };
}

describe('foldPrepareStep in a real generateText tool loop (MockLanguageModelV3)', () => {
  it('every prompt the model receives is the folded view, under the ceiling, and folds do happen', async () => {
    const loop = await runLoop();
    expect(loop.steps).toBe(STEPS);
    expect(loop.prompts).toHaveLength(STEPS);
    const rawTokens = viewTokens(loop.inputs[STEPS - 1] as never, countTokens);
    expect(rawTokens).toBeGreaterThan(3 * CEILING);
    loop.prompts.forEach((prompt, step) => {
      const view = loop.outcomes[step].messages as ModelMessage[];
      // the SDK's prompt is the system prompt plus the view, message for message
      expect(prompt[0]).toMatchObject({ role: 'system' });
      expect(prompt.slice(1).map(digest)).toEqual(view.map(digest));
      expect(viewTokens(view as never, countTokens)).toBeLessThanOrEqual(CEILING);
      for (const message of view)
        expect(modelMessageSchema.safeParse(message).success, JSON.stringify(message).slice(0, 200)).toBe(true);
      // unfolded messages are the SDK's own objects
      const own = new Set<unknown>(loop.inputs[step]);
      for (const message of view)
        if (!digest(message).includes('[warpfold'))
          expect(own.has(message) || digest(message) === 'assistant|text:Understood.').toBe(true);
    });
    const folded = loop.prompts.filter((prompt) => JSON.stringify(prompt).includes('[warpfold fold'));
    expect(folded.length).toBeGreaterThan(STEPS / 2);
    expect(loop.outcomes.some((outcome) => outcome.stats.bands > 1 || outcome.stats.epochs > 2)).toBe(true);
    // the head keeps its provider options; the live step keeps its reasoning signature
    const last = loop.prompts[STEPS - 1];
    expect((last[1].content as Array<Record<string, unknown>>)[0].providerOptions).toEqual({
      anthropic: { cacheControl: { type: 'ephemeral' } },
    });
    expect(JSON.stringify(last)).toContain(`"signature":"sig-${STEPS - 1}"`);
  });

  it('keeps the sealed prefix byte-identical while the session stays hot', async () => {
    const loop = await runLoop();
    let hot = 0;
    for (let step = 1; step < STEPS; step++) {
      const outcome = loop.outcomes[step];
      if (!outcome.cacheHot || outcome.sealedBoundary === null) continue;
      hot++;
      // +1 for the system prompt the SDK puts first, +1 to include the boundary itself
      const end = outcome.sealedBoundary + 2;
      expect(JSON.stringify(loop.prompts[step].slice(0, end))).toBe(
        JSON.stringify(loop.prompts[step - 1].slice(0, end)),
      );
      expect(loop.outcomes[step - 1].sealedBoundary).toBe(outcome.sealedBoundary);
    }
    expect(hot).toBeGreaterThan(2);
  });

  it('puts the Anthropic cache breakpoint on the sealed boundary only', async () => {
    const loop = await runLoop({ anthropicCacheControl: true });
    let marked = 0;
    loop.prompts.forEach((prompt, step) => {
      const boundary = loop.outcomes[step].sealedBoundary;
      prompt.slice(1).forEach((message, index) => {
        const options = message.providerOptions as { anthropic?: { cacheControl?: unknown } } | undefined;
        if (index === boundary) {
          expect(options?.anthropic?.cacheControl).toEqual({ type: 'ephemeral' });
          marked++;
        } else expect(options?.anthropic?.cacheControl).toBeUndefined();
      });
    });
    expect(marked).toBeGreaterThan(STEPS / 2);
  });
});

describe('foldPrepareStep in a real streamText tool loop', () => {
  it('streams every step from the folded view, under the ceiling', async () => {
    const session = new FoldSession({ pressureCeiling: CEILING, countTokens, now: () => 1_764_590_400_000 });
    const prompts: PromptMessage[][] = [];
    const outcomes: FoldOutcome[] = [];
    const usage = {
      inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 10, text: 10, reasoning: undefined },
    };
    const model = new MockLanguageModelV3({
      doStream: async ({ prompt }) => {
        prompts.push(structuredClone(prompt) as PromptMessage[]);
        const step = prompts.length;
        const chunks =
          step === STEPS
            ? [
                { type: 'text-start', id: 't' },
                { type: 'text-delta', id: 't', delta: 'Done.' },
                { type: 'text-end', id: 't' },
                { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
              ]
            : [
                {
                  type: 'tool-call',
                  toolCallId: `call_${step}`,
                  toolName: 'bash',
                  input: JSON.stringify({ command: `tail /var/log/worker-${step}.log` }),
                },
                { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage },
              ];
        return {
          stream: simulateReadableStream({ chunks: [{ type: 'stream-start', warnings: [] }, ...chunks] as never[] }),
        };
      },
    });
    const result = streamText({
      model,
      messages: [{ role: 'user', content: 'Find the slow worker.' }],
      tools: {
        bash: tool({
          inputSchema: jsonSchema<{ command: string }>({
            type: 'object',
            properties: { command: { type: 'string' } },
            required: ['command'],
          }),
          execute: async ({ command }) => toolOutput(Number(/worker-(\d+)/.exec(command)?.[1] ?? 0), OUTPUT_LINES),
        }),
      },
      stopWhen: stepCountIs(STEPS),
      prepareStep: foldPrepareStep(session, { onPrepared: (outcome) => outcomes.push(outcome) }),
    });
    expect(await result.text).toBe('Done.');
    expect(prompts).toHaveLength(STEPS);
    prompts.forEach((prompt, step) => {
      expect(prompt.map(digest)).toEqual((outcomes[step].messages as ModelMessage[]).map(digest));
      expect(viewTokens(outcomes[step].messages, countTokens)).toBeLessThanOrEqual(CEILING);
    });
    expect(prompts.filter((prompt) => JSON.stringify(prompt).includes('[warpfold fold')).length).toBeGreaterThan(
      STEPS / 2,
    );
  });
});

describe('withAnthropicCacheBreakpoint', () => {
  const messages: ModelMessage[] = [
    { role: 'user', content: 'a' },
    {
      role: 'assistant',
      content: [{ type: 'text', text: 'b' }],
      providerOptions: { anthropic: { sendReasoning: true }, openai: { store: false } },
    },
    { role: 'user', content: 'c' },
  ];

  it('copies only the boundary message, keeping its other provider options', () => {
    const marked = withAnthropicCacheBreakpoint(messages, 1, { type: 'ephemeral', ttl: '1h' });
    expect(marked[0]).toBe(messages[0]);
    expect(marked[2]).toBe(messages[2]);
    expect(marked[1]).not.toBe(messages[1]);
    expect(marked[1].providerOptions).toEqual({
      anthropic: { sendReasoning: true, cacheControl: { type: 'ephemeral', ttl: '1h' } },
      openai: { store: false },
    });
    expect(messages[1].providerOptions).toEqual({ anthropic: { sendReasoning: true }, openai: { store: false } });
  });

  it('leaves a view with nothing sealed as it is', () => {
    const marked = withAnthropicCacheBreakpoint(messages, null);
    expect(marked).toEqual(messages);
    marked.forEach((message, index) => expect(message).toBe(messages[index]));
  });
});
