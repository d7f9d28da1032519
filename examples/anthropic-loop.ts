// Run: ANTHROPIC_API_KEY=… npx tsx examples/anthropic-loop.ts ["task"]
// A full tool loop against the Anthropic Messages API: the model explores a project with two
// read-only tools; FoldSession keeps the view under its ceiling, prepareAnthropicCachedRequest
// marks the stable parts for caching, and readAnthropicUsage feeds the measured input back into
// the next prepare. Env: ANTHROPIC_BASE_URL (another endpoint), ANTHROPIC_MODEL, WARPFOLD_ROOT
// (the project, default the working directory), WARPFOLD_CEILING (tokens, default 16000),
// WARPFOLD_MAX_CALLS (default 30).
import { FoldSession, type ProviderMessage } from 'warpfold';
import { prepareAnthropicCachedRequest, readAnthropicUsage } from 'warpfold/providers/anthropic';
import { runRepoTool, TOOL_DESCRIPTIONS, TOOL_PARAMETERS } from './repo-tools.ts';

const apiKey = process.env.ANTHROPIC_API_KEY;
if (!apiKey) {
  console.error('Set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another endpoint).');
  process.exit(2);
}
const baseUrl = (process.env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com').replace(/\/+$/, '');
const model = process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5';
const root = process.env.WARPFOLD_ROOT ?? process.cwd();
const maxCalls = Number(process.env.WARPFOLD_MAX_CALLS ?? 30);
const task = process.argv[2] ?? 'Read this project’s source files one by one and summarise what each module does.';

const system = `You explore a software project with the tools you are given and answer the user's question.\n## Your Identity\nSession started ${new Date().toISOString()}.`;
const tools = Object.entries(TOOL_DESCRIPTIONS).map(([name, description]) => ({
  name,
  description,
  input_schema: TOOL_PARAMETERS,
}));
const session = new FoldSession({ pressureCeiling: Number(process.env.WARPFOLD_CEILING ?? 16_000) });

interface AnthropicBlock {
  type: string;
  id?: string;
  name?: string;
  input?: unknown;
  text?: string;
}

const history: ProviderMessage[] = [{ role: 'user', content: task }];
let measuredInputTokens: number | undefined;
const totals = { calls: 0, cacheRead: 0, cacheWrite: 0, input: 0 };
for (let call = 1; call <= maxCalls; call++) {
  const view = session.prepare(history, { measuredInputTokens });
  const { request, requestOptions, breakpoints } = prepareAnthropicCachedRequest({
    messages: view.messages,
    sealedBoundary: view.sealedBoundary,
    system,
    tools,
    params: { model, max_tokens: 1024 },
  });
  const response = await fetch(`${baseUrl}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': apiKey,
      'anthropic-version': '2023-06-01',
      ...requestOptions.headers,
    },
    body: JSON.stringify(request),
  });
  if (!response.ok) throw new Error(`Anthropic API ${response.status}: ${await response.text()}`);
  const message = (await response.json()) as { content: AnthropicBlock[]; stop_reason: string };
  const usage = readAnthropicUsage(message);
  measuredInputTokens = usage.measuredInputTokens;
  totals.calls++;
  totals.cacheRead += usage.cacheReadTokens;
  totals.cacheWrite += usage.cacheWriteTokens;
  totals.input += usage.measuredInputTokens;
  console.log(
    `call ${call}: raw ${history.length} messages → view ${view.messages.length} (${view.stats.epochReason ?? (view.cacheHot ? 'hot reuse' : 'reuse')}), ${breakpoints.length} breakpoints; input ${usage.measuredInputTokens} tokens (cache read ${usage.cacheReadTokens}, write ${usage.cacheWriteTokens})`,
  );
  history.push({ role: 'assistant', content: message.content });
  const uses = message.content.filter((block) => block.type === 'tool_use');
  if (message.stop_reason !== 'tool_use' || uses.length === 0) {
    console.log(
      `\nfinal answer:\n${message.content
        .filter((block) => block.type === 'text')
        .map((block) => block.text)
        .join('\n')}`,
    );
    break;
  }
  history.push({
    role: 'user',
    content: uses.map((use) => {
      const result = runRepoTool(root, use.name ?? '', use.input);
      return {
        type: 'tool_result',
        tool_use_id: use.id,
        content: result.text,
        ...(result.isError ? { is_error: true } : {}),
      };
    }),
  });
}
const readShare = totals.input === 0 ? 0 : (100 * totals.cacheRead) / totals.input;
console.log(
  `\n${totals.calls} calls, ${totals.input} input tokens, ${totals.cacheRead} read from cache (${readShare.toFixed(1)}%), ${totals.cacheWrite} written; ${session.telemetry.epochs} fold epochs`,
);
