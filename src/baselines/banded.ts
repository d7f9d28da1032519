// A banded fold of our own, the calibration fold the reference scorer compares every engine with,
// written from its description in ../shared/BENCHMARK.md: on overflow, seal only the stretch since
// the last band into a new band (the agent's words and commands, newest first, then the line that
// holds each identifier's last occurrence), so older bands stay byte-identical and the prompt's
// prefix stays cached; when the bands outgrow 45% of the ceiling, merge them all into one.
import { contentText, toolArgumentText } from '../tokens/index.ts';
import { detectDialect, headMessages, isToolResultMessage, userMessage } from './dialect.ts';
import { identifierContexts } from './identifiers.ts';
import { messageTokens, textTokens, viewTokens } from './message-tokens.ts';
import { tailBoundary } from './tail-boundary.ts';
import { truncateView } from './truncate.ts';
import type { BaselineMessage, StrategyDefinition } from './types.ts';

/** The raw tail kept after a fold, as a share of the ceiling. */
const TAIL_FRACTION = 0.35;
/** Bands past this share of the ceiling are merged into one. */
const MERGE_FRACTION = 0.45;
/** A new band's budget: a share of what it folds, between a floor and a share of the ceiling. */
const BAND_SHARE_OF_STRETCH = 0.25;
const BAND_FLOOR_TOKENS = 200;
const BAND_CEILING_FRACTION = 0.15;
/** The merged band's budget, as a share of the ceiling. */
const MERGED_FRACTION = 0.25;
/** Characters kept of one agent item (words or a command). */
const ITEM_CHARACTERS = 400;

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The agent's words and commands (and the user's words) of a stretch, newest first. */
function agentItems(stretch: readonly BaselineMessage[]): string[] {
  const items: string[] = [];
  for (let index = stretch.length - 1; index >= 0; index--) {
    const message = stretch[index];
    if (isToolResultMessage(message)) continue;
    const text = oneLine(contentText(message.content ?? message.parts));
    if (message.role === 'assistant' || message.role === 'model') {
      // newest first within the message too: its commands came after its words
      for (const toolCall of [...(message.tool_calls ?? [])].reverse()) {
        items.push(
          `$ ${toolCall.function?.name} ${oneLine(toolArgumentText(toolCall.function?.arguments))}`.slice(
            0,
            ITEM_CHARACTERS,
          ),
        );
      }
      if (text) items.push(text.slice(0, ITEM_CHARACTERS));
    } else if (message.role === 'user' && text) items.push(`user: ${text}`.slice(0, ITEM_CHARACTERS));
  }
  return items;
}

/** The line around each identifier's last occurrence in the stretch, newest occurrence first, each line once. */
function identifierLines(stretch: readonly BaselineMessage[]): string[] {
  const lastLine = new Map<string, string>();
  for (const message of stretch) {
    for (const [identifier, line] of identifierContexts(message)) {
      // re-inserted, so the map's order is the order of last occurrence
      lastLine.delete(identifier);
      lastLine.set(identifier, line);
    }
  }
  return [...new Set([...lastLine.values()].reverse())];
}

/** Items in order while they fit `budget` tokens; one that does not fit is skipped, not the rest. */
function itemsWithin(items: readonly string[], budget: number): { kept: string[]; left: number } {
  const kept: string[] = [];
  let left = budget;
  for (const item of items) {
    const tokens = textTokens(item + '\n');
    if (tokens > left) continue;
    left -= tokens;
    kept.push(item);
  }
  return { kept, left };
}

/** A band's text: half its budget for the agent's words and commands, the rest (and what they left) for identifier lines. */
function bandText(first: number, last: number, stretch: readonly BaselineMessage[], budget: number): string {
  const words = itemsWithin(agentItems(stretch), budget / 2);
  const lines = itemsWithin(identifierLines(stretch), budget / 2 + words.left);
  const sections = [`[Folded messages ${first}-${last}]`, ...words.kept];
  if (lines.kept.length) sections.push('Identifiers in context:', ...lines.kept);
  return sections.join('\n');
}

function createBanded(ceiling: number) {
  let bands: BaselineMessage[] = [];
  let boundary = -1;
  return {
    prepare(history: readonly BaselineMessage[]) {
      const dialect = detectDialect(history);
      const head = headMessages(history);
      if (boundary < 0) boundary = head.length;
      const compose = (): BaselineMessage[] => [...head, ...bands, ...history.slice(boundary)];
      let view = compose();
      if (viewTokens(view) <= ceiling) return { messages: view };
      // the tail leaves room for the head, the bands so far and the new band at its largest
      const room = ceiling - viewTokens(head) - viewTokens(bands) - BAND_CEILING_FRACTION * ceiling;
      const sealed = tailBoundary(history, boundary, Math.min(TAIL_FRACTION * ceiling, room), messageTokens);
      if (sealed > boundary) {
        const stretch = history.slice(boundary, sealed);
        const budget = Math.min(
          BAND_CEILING_FRACTION * ceiling,
          Math.max(BAND_FLOOR_TOKENS, BAND_SHARE_OF_STRETCH * viewTokens(stretch)),
        );
        bands = [...bands, userMessage(bandText(boundary, sealed - 1, stretch, budget), dialect)];
        boundary = sealed;
        if (viewTokens(bands) > MERGE_FRACTION * ceiling) {
          const folded = history.slice(head.length, sealed);
          bands = [userMessage(bandText(head.length, sealed - 1, folded, MERGED_FRACTION * ceiling), dialect)];
        }
        view = compose();
      }
      return { messages: viewTokens(view) > ceiling ? truncateView(view, ceiling) : view };
    },
  };
}

export const bandedStrategy: StrategyDefinition = {
  name: 'banded',
  description:
    "the scorer's calibration fold: seal the newest stretch into a band of agent words, commands and identifier lines; merge bands past 45% of the ceiling",
  create: ({ ceiling }) => createBanded(ceiling),
};
