// Run: OPENAI_API_KEY=… npx tsx examples/openai-loop.ts ["task"]
// A full tool loop with the openai client (Chat Completions): FoldSession keeps the view under its
// ceiling, prepareOpenAIChatRequest lays each request out static first with a stable
// prompt_cache_key, and readOpenAIUsage feeds the measured input back into the next prepare.
// Env: OPENAI_BASE_URL (read by the client), OPENAI_MODEL, WARPFOLD_ROOT, WARPFOLD_CEILING,
// WARPFOLD_MAX_CALLS.
import OpenAI from 'openai';
import { FoldSession, type ProviderMessage } from 'warpfold';
import { openAIPromptCacheKey, prepareOpenAIChatRequest, readOpenAIUsage } from 'warpfold/providers/openai';
import { runRepoTool, TOOL_DESCRIPTIONS, TOOL_PARAMETERS } from './repo-tools.ts';

if (!process.env.OPENAI_API_KEY) {
  console.error('Set OPENAI_API_KEY (and OPENAI_BASE_URL for another endpoint).');
  process.exit(2);
}
const client = new OpenAI({ maxRetries: 1 });
const model = process.env.OPENAI_MODEL ?? 'gpt-4.1-mini';
const root = process.env.WARPFOLD_ROOT ?? process.cwd();
const maxCalls = Number(process.env.WARPFOLD_MAX_CALLS ?? 30);
const task = process.argv[2] ?? 'Read this project’s source files one by one and summarise what each module does.';

const tools = Object.entries(TOOL_DESCRIPTIONS).map(([name, description]) => ({
  type: 'function',
  function: { name, description, parameters: TOOL_PARAMETERS },
}));
const session = new FoldSession({ pressureCeiling: Number(process.env.WARPFOLD_CEILING ?? 16_000) });
const promptCacheKey = openAIPromptCacheKey(['warpfold-example', root, task]);

const history: ProviderMessage[] = [{ role: 'user', content: task }];
let measuredInputTokens: number | undefined;
const totals = { calls: 0, cached: 0, input: 0 };
for (let call = 1; call <= maxCalls; call++) {
  const view = session.prepare(history, { measuredInputTokens });
  const { request } = prepareOpenAIChatRequest({
    messages: view.messages,
    system: 'You explore a software project with the tools you are given and answer the user’s question.',
    tools,
    promptCacheKey,
    params: { model },
  });
  const completion = await client.chat.completions.create(
    request as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
  );
  const usage = readOpenAIUsage(completion);
  measuredInputTokens = usage.measuredInputTokens;
  totals.calls++;
  totals.cached += usage.cacheReadTokens;
  totals.input += usage.measuredInputTokens;
  console.log(
    `call ${call}: raw ${history.length} messages → view ${view.messages.length} (${view.stats.epochReason ?? (view.cacheHot ? 'hot reuse' : 'reuse')}); input ${usage.measuredInputTokens} tokens (cached ${usage.cacheReadTokens})`,
  );
  const message = completion.choices[0].message;
  history.push({
    role: 'assistant',
    content: message.content,
    ...(message.tool_calls?.length ? { tool_calls: message.tool_calls } : {}),
  });
  const calls = (message.tool_calls ?? []).filter((toolCall) => toolCall.type === 'function');
  if (calls.length === 0) {
    console.log(`\nfinal answer:\n${message.content ?? ''}`);
    break;
  }
  for (const toolCall of calls) {
    let input: unknown = {};
    try {
      input = JSON.parse(toolCall.function.arguments);
    } catch {
      input = {};
    }
    history.push({
      role: 'tool',
      tool_call_id: toolCall.id,
      content: runRepoTool(root, toolCall.function.name, input).text,
    });
  }
}
const cachedShare = totals.input === 0 ? 0 : (100 * totals.cached) / totals.input;
console.log(
  `\n${totals.calls} calls, ${totals.input} input tokens, ${totals.cached} cached (${cachedShare.toFixed(1)}%); ${session.telemetry.epochs} fold epochs`,
);
