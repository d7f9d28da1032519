import { compactionSummary, finalAnswer, lastStepSeen, scriptStep } from './script.ts';
import {
  type Exchange,
  jsonReply,
  type ProviderReply,
  type ScriptContext,
  SSE_HEADERS,
  sseEvent,
  stableId,
  stableSignature,
} from './types.ts';

type Item = Record<string, any>;
interface GenerateRequest {
  contents: Item[];
  systemInstruction?: Item;
  tools?: Array<{ functionDeclarations?: Item[] }>;
  generationConfig?: { responseMimeType?: string; responseJsonSchema?: Item; responseSchema?: Item };
}

/**
 * A value for a JSON-mode call (the Gemini CLI's router, next-speaker and loop checks): every
 * property filled, confidences 0 and other numbers 1, an enum's `user` where offered (the turn goes back to the user).
 */
function fillSchema(schema: Item | undefined, key = ''): unknown {
  if (schema === undefined) return {};
  const type = String(schema.type ?? 'object').toLowerCase();
  if (Array.isArray(schema.enum)) return schema.enum.includes('user') ? 'user' : schema.enum[0];
  if (type === 'object')
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([name, value]) => [name, fillSchema(value as Item, name)]),
    );
  if (type === 'array') return [];
  // a loop check's confidence 0 (no loop); any other score 1, the lowest the router accepts
  if (type === 'integer' || type === 'number') return /confidence/i.test(key) ? 0 : 1;
  if (type === 'boolean') return false;
  return 'scripted';
}

/** Gemini `models/{model}:generateContent`, `:streamGenerateContent` (SSE with `alt=sse`) and `:countTokens`. */
export function answerGemini(path: string, body: GenerateRequest, context: ScriptContext): ProviderReply {
  const model = /\/models\/([^/:]+):/.exec(path)?.[1] ?? 'gemini';
  const overhead = { tools: body.tools, messages: [body.systemInstruction ?? null, body.contents] };
  if (path.endsWith(':countTokens')) {
    const totalTokens = Math.ceil(JSON.stringify(overhead).length / 4);
    return jsonReply({ totalTokens }, { kind: 'count-tokens', usage: { totalTokens } });
  }
  const history = JSON.stringify(body.contents);
  const last = lastStepSeen(history);
  const step = last + 1;
  const shell = body.tools
    ?.flatMap((tool) => tool.functionDeclarations ?? [])
    .find((declaration) => declaration.name === 'run_shell_command');
  let parts: Item[];
  let exchange: Omit<Exchange, 'usage'>;
  if (body.generationConfig?.responseMimeType === 'application/json') {
    const schema = body.generationConfig.responseJsonSchema ?? body.generationConfig.responseSchema;
    parts = [{ text: JSON.stringify(fillSchema(schema)) }];
    exchange = { kind: 'router', step: last };
  } else if (shell === undefined) {
    parts = [{ text: compactionSummary(last) }];
    exchange = { kind: 'compaction', step: last };
  } else if (step >= context.steps) {
    parts = [{ text: finalAnswer(step) }];
    exchange = { kind: 'final', step: last };
  } else {
    const { command, description } = scriptStep(step);
    // Gemini 3 signs the first function call of a turn; the client must send the signature back
    parts = [
      { functionCall: { name: shell.name, args: { command, description } }, thoughtSignature: stableSignature(step) },
    ];
    exchange = { kind: 'tool-call', step };
  }
  const cached = context.geminiCache.usage(overhead);
  const usageMetadata = {
    promptTokenCount: cached.prompt_tokens,
    candidatesTokenCount: 24,
    totalTokenCount: cached.prompt_tokens + 24,
    ...(cached.cached_tokens > 0 ? { cachedContentTokenCount: cached.cached_tokens } : {}),
  };
  const reported = { promptTokenCount: cached.prompt_tokens, cachedContentTokenCount: cached.cached_tokens };
  const response = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata,
    modelVersion: model,
    responseId: stableId('', step, exchange.kind.replace('-', '')),
  };
  if (!path.endsWith(':streamGenerateContent')) return jsonReply(response, { ...exchange, usage: reported });
  return {
    status: 200,
    headers: SSE_HEADERS,
    chunks: [sseEvent(response)],
    exchange: { ...exchange, usage: reported },
  };
}
