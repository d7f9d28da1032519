// A STAND-IN for LLM summarization, not a summarizer: no model is called. On overflow it
// replaces the older turns with a fixed-size extractive summary (the first line of each folded
// message, newest kept), and it reports the model call a real summarizer would have made, so the
// benchmark bills that call's input (with the cache rule) and its output tokens. What a real
// summary would keep is unknowable offline; the cost and the cache behaviour are what it measures.
import { contentText, toolArgumentText } from '../tokens/index.ts';
import { detectDialect, headMessages, isToolResultMessage, userMessage } from './dialect.ts';
import { messageTokens, textTokens, viewTokens } from './message-tokens.ts';
import { tailBoundary } from './tail-boundary.ts';
import { truncateView } from './truncate.ts';
import type { BaselineMessage, ExtraModelCall, StrategyDefinition } from './types.ts';

const TAIL_FRACTION = 0.5;
const SUMMARY_FRACTION = 0.1;
const INSTRUCTION =
  'Summarize the conversation so far for your own later use: decisions, findings, identifiers, open questions.';

const firstLine = (text: string, limit: number): string =>
  (text.split('\n').find((line) => line.trim()) ?? '').trim().slice(0, limit);

function extractLines(message: BaselineMessage): string[] {
  const text = contentText(message.content ?? message.parts);
  if (isToolResultMessage(message)) return [`- result: ${firstLine(text, 120)}`];
  if (message.role === 'assistant' || message.role === 'model') {
    const lines = text.trim() ? [`- agent: ${firstLine(text, 160)}`] : [];
    for (const toolCall of message.tool_calls ?? [])
      lines.push(
        `- call ${toolCall.function?.name} ${toolArgumentText(toolCall.function?.arguments).replace(/\s+/g, ' ').slice(0, 120)}`,
      );
    return lines;
  }
  return [`- ${message.role}: ${firstLine(text, 200)}`];
}

function newestLinesWithin(lines: readonly string[], budget: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (let index = lines.length - 1; index >= 0; index--) {
    const tokens = textTokens(lines[index] + '\n');
    if (used + tokens > budget) break;
    used += tokens;
    kept.unshift(lines[index]);
  }
  return kept;
}

function createSummarizer(ceiling: number) {
  let summary: BaselineMessage | null = null;
  let summaryLines: string[] = [];
  let summarizedCount = 0;
  let boundary = -1;
  return {
    prepare(history: readonly BaselineMessage[]) {
      const dialect = detectDialect(history);
      const head = headMessages(history);
      if (boundary < 0) boundary = head.length;
      const compose = (): BaselineMessage[] => [...head, ...(summary ? [summary] : []), ...history.slice(boundary)];
      let view = compose();
      if (viewTokens(view) <= ceiling) return { messages: view };
      const newBoundary = tailBoundary(history, boundary, TAIL_FRACTION * ceiling, messageTokens);
      const extraCalls: ExtraModelCall[] = [];
      if (newBoundary > boundary) {
        const folded = history.slice(boundary, newBoundary);
        // The summarizer is sent the current prefix (cache-warm from the last call) plus an instruction.
        const request = [...head, ...(summary ? [summary] : []), ...folded, userMessage(INSTRUCTION, dialect)];
        summaryLines = newestLinesWithin(
          [...summaryLines, ...folded.flatMap(extractLines)],
          Math.round(SUMMARY_FRACTION * ceiling),
        );
        summarizedCount += folded.length;
        const text = `[Summary of ${summarizedCount} earlier messages]\n${summaryLines.join('\n')}`;
        summary = userMessage(text, dialect);
        boundary = newBoundary;
        extraCalls.push({ messages: request, outputTokens: textTokens(text) });
        view = compose();
      }
      if (viewTokens(view) > ceiling) view = truncateView(view, ceiling);
      return { messages: view, extraCalls };
    },
  };
}

export const summarizeStandInStrategy: StrategyDefinition = {
  name: 'summarize',
  description:
    'summarization STAND-IN (no LLM): fixed-size extractive summary of old turns, one billed extra model call per summary',
  create: ({ ceiling }) => createSummarizer(ceiling),
};
