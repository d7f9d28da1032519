// The reference scorer's deliberately simple 60-line fold, ported line for line: on overflow,
// fold all but a tail of 40% of the ceiling into skeleton lines plus a bag of identifiers
// (sawtooth) or of the lines holding them (sawtooth-lines). A real engine must beat it clearly.
import { toolArgumentText, renderMessage } from '../tokens/index.ts';
import { identifierContexts, identifiers } from './identifiers.ts';
import { detectDialect, headMessages, userMessage } from './dialect.ts';
import { messageTokens, textTokens, viewTokens } from './message-tokens.ts';
import { tailBoundary } from './tail-boundary.ts';
import { truncateView } from './truncate.ts';
import type { BaselineMessage, StrategyDefinition } from './types.ts';

const TAIL_FRACTION = 0.4;
const CLOSET_FRACTION = 0.3;

interface SawtoothState {
  fold: BaselineMessage | null;
  boundary: number;
}

function foldBlock(
  folded: readonly BaselineMessage[],
  ceiling: number,
  headTokens: number,
  withLines: boolean,
): string {
  const actionLines: string[] = [];
  for (const message of folded) {
    for (const toolCall of message.tool_calls ?? []) {
      actionLines.push(
        `- ${toolCall.function?.name} ${toolArgumentText(toolCall.function?.arguments).replace(/\s+/g, ' ').slice(0, 100)}`,
      );
    }
  }
  const lastSeen = new Map<string, number>();
  const lineOf = new Map<string, string>();
  const usedByAgent = new Set<string>();
  folded.forEach((message, index) => {
    for (const identifier of identifiers(renderMessage(message))) {
      lastSeen.set(identifier, index);
      if (message.role === 'assistant') usedByAgent.add(identifier);
    }
    if (withLines) for (const [identifier, line] of identifierContexts(message)) lineOf.set(identifier, line);
  });
  const score = ([identifier, index]: [string, number]): number =>
    index + (usedByAgent.has(identifier) ? folded.length * 0.5 : 0);
  const ordered = [...lastSeen.entries()]
    .sort((first, second) => score(second) - score(first))
    .map(([identifier]) => identifier);
  let closet = '';
  let budget = CLOSET_FRACTION * ceiling;
  const used = new Set<string>();
  for (const identifier of ordered) {
    const item = withLines ? (lineOf.get(identifier) ?? identifier) : identifier;
    if (used.has(item)) continue;
    const tokens = textTokens(item + '\n');
    if (budget - tokens < 0) continue;
    budget -= tokens;
    used.add(item);
    closet += item + (withLines ? '\n' : ' ');
  }
  let skeleton = actionLines.join('\n');
  const skeletonBudget = Math.max(0, ceiling - TAIL_FRACTION * ceiling - CLOSET_FRACTION * ceiling - headTokens - 200);
  while (skeleton && textTokens(skeleton) > skeletonBudget) {
    skeleton = skeletonBudget <= 0 ? '' : skeleton.slice(Math.max(1, Math.floor(skeleton.length / 4)));
  }
  return `[Folded ${folded.length} earlier messages]\nActions:\n${skeleton}\nIdentifiers: ${closet}`;
}

function clipLargeResults(view: readonly BaselineMessage[], headLength: number): BaselineMessage[] {
  return view.map((message, index) =>
    index > headLength &&
    message.role === 'tool' &&
    typeof message.content === 'string' &&
    message.content.length > 4000
      ? { ...message, content: message.content.slice(0, 2000) + '\n[...clipped...]\n' + message.content.slice(-1500) }
      : message,
  );
}

function createSawtooth(ceiling: number, withLines: boolean) {
  const state: SawtoothState = { fold: null, boundary: 2 };
  return {
    prepare(history: readonly BaselineMessage[]) {
      const dialect = detectDialect(history);
      // The scorer keeps the first two messages; in Anthropic and Gemini transcripts the second is
      // the agent's first tool call, so keep only the leading system/user messages there.
      const head = dialect === 'openai' ? history.slice(0, 2) : headMessages(history);
      const headLength = dialect === 'openai' ? 2 : head.length;
      if (state.fold === null) state.boundary = headLength;
      const compose = (): BaselineMessage[] => [
        ...head,
        ...(state.fold ? [state.fold] : []),
        ...history.slice(state.boundary),
      ];
      let view = compose();
      if (viewTokens(view) <= ceiling) return { messages: view };
      const boundary = tailBoundary(history, headLength, TAIL_FRACTION * ceiling, messageTokens);
      const folded = history.slice(headLength, boundary);
      state.fold = userMessage(foldBlock(folded, ceiling, viewTokens(head), withLines), dialect);
      state.boundary = boundary;
      view = compose();
      if (viewTokens(view) > ceiling) {
        view = clipLargeResults(view, head.length);
        if (viewTokens(view) > ceiling) view = truncateView(view, ceiling);
      }
      return { messages: view };
    },
  };
}

export const sawtoothStrategy: StrategyDefinition = {
  name: 'sawtooth',
  description: "the scorer's 60-line fold: skeleton lines plus a bag of identifiers, tail of 40% of the ceiling",
  create: ({ ceiling }) => createSawtooth(ceiling, false),
};

export const sawtoothLinesStrategy: StrategyDefinition = {
  name: 'sawtooth-lines',
  description: 'the same fold, keeping the line around each identifier instead of the bare identifier',
  create: ({ ceiling }) => createSawtooth(ceiling, true),
};
