import {
  CODEX_COMPACTION_TEXT,
  compactionSummary,
  finalAnswer,
  lastStepSeen,
  scriptStep,
  type ScriptStep,
} from './script.ts';
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
interface ResponsesRequest {
  model?: string;
  stream?: boolean;
  instructions?: string;
  input: string | Item[];
  tools?: Item[];
  include?: string[];
}

/** The shell tool Codex advertises: `exec_command` (a command line), else `shell` (argv) or `shell_command`. */
function shellTool(tools: Item[] | undefined): { name: string; arguments: (step: ScriptStep) => Item } | undefined {
  const named = (name: string) => tools?.find((tool) => tool.type === 'function' && tool.name === name);
  if (named('exec_command')) return { name: 'exec_command', arguments: (step) => ({ cmd: step.command }) };
  if (named('shell')) return { name: 'shell', arguments: (step) => ({ command: ['bash', '-lc', step.command] }) };
  if (named('shell_command')) return { name: 'shell_command', arguments: (step) => ({ command: step.command }) };
  if (named('bash')) return { name: 'bash', arguments: (step) => ({ command: step.command }) };
  return undefined;
}

/** OpenAI Responses, `POST /v1/responses`, streamed or not (Codex speaks only this, streamed). */
export function answerResponses(body: ResponsesRequest, context: ScriptContext): ProviderReply {
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  const history = JSON.stringify(input);
  const last = lastStepSeen(history);
  const tool = shellTool(body.tools);
  const compactionTrigger = input.at(-1)?.type === 'compaction_trigger';
  const compacting = compactionTrigger || history.includes(CODEX_COMPACTION_TEXT);
  const step = last + 1;
  const items: Item[] = [];
  let exchange: Omit<Exchange, 'usage'>;
  if (compactionTrigger) {
    // the built-in provider's remote compaction: exactly one opaque compaction item back
    items.push({
      type: 'compaction',
      id: stableId('cmp_', last, 'scripted'),
      encrypted_content: Buffer.from(compactionSummary(last)).toString('base64'),
    });
    exchange = { kind: 'compaction', step: last };
  } else {
    if (body.include?.includes('reasoning.encrypted_content'))
      items.push({
        type: 'reasoning',
        id: stableId('rs_', step, 'scripted'),
        summary: [],
        encrypted_content: stableSignature(step),
      });
    if (compacting || tool === undefined || last + 1 >= context.steps) {
      const text = compacting || tool === undefined ? compactionSummary(last) : finalAnswer(last + 1);
      items.push({
        type: 'message',
        id: stableId('msg_', step, 'scripted'),
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text, annotations: [] }],
      });
      exchange = { kind: compacting ? 'compaction' : tool === undefined ? 'text' : 'final', step: last };
    } else {
      items.push({
        type: 'function_call',
        id: stableId('fc_', step, 'scripted'),
        call_id: stableId('call_', step, 'scripted'),
        name: tool.name,
        arguments: JSON.stringify(tool.arguments(scriptStep(step))),
        status: 'completed',
      });
      exchange = { kind: 'tool-call', step };
    }
  }
  const cached = context.openaiCache.usage({ tools: body.tools, messages: [body.instructions ?? '', input] });
  const usage = {
    input_tokens: cached.prompt_tokens,
    input_tokens_details: { cached_tokens: cached.cached_tokens },
    output_tokens: 24,
    output_tokens_details: { reasoning_tokens: 8 },
    total_tokens: cached.prompt_tokens + 24,
  };
  const reported = { input_tokens: cached.prompt_tokens, cached_tokens: cached.cached_tokens };
  const id = stableId('resp_', step, exchange.kind.replace('-', ''));
  const response = { id, object: 'response', created_at: 1_796_400_000, model: body.model, status: 'completed' };
  if (body.stream !== true) return jsonReply({ ...response, output: items, usage }, { ...exchange, usage: reported });
  let sequence = 0;
  const event = (type: string, data: Item) => sseEvent({ type, sequence_number: sequence++, ...data }, type);
  const chunks = [
    event('response.created', { response: { ...response, status: 'in_progress', output: [] } }),
    event('response.in_progress', { response: { ...response, status: 'in_progress', output: [] } }),
  ];
  items.forEach((item, outputIndex) => {
    chunks.push(event('response.output_item.added', { output_index: outputIndex, item }));
    if (item.type === 'message') {
      const text = item.content[0].text;
      chunks.push(
        event('response.output_text.delta', {
          item_id: item.id,
          output_index: outputIndex,
          content_index: 0,
          delta: text,
        }),
        event('response.output_text.done', { item_id: item.id, output_index: outputIndex, content_index: 0, text }),
      );
    }
    chunks.push(event('response.output_item.done', { output_index: outputIndex, item }));
  });
  chunks.push(event('response.completed', { response: { ...response, output: items, usage } }));
  return { status: 200, headers: SSE_HEADERS, chunks, exchange: { ...exchange, usage: reported } };
}
