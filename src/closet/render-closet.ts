import { argumentValues } from '../messages/plain-text.ts';
import type { CanonicalMessage } from '../messages/types.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { extractVerbatimContextLabel } from './context-label.ts';
import type { IdentifierKind } from './identifier-kinds.ts';
import { findIdentifiers } from './nominate-verbatim.ts';

export const CLOSET_MARK = '⌖';

const KIND_WEIGHT: Record<IdentifierKind, number> = {
  uuid: 30, hash: 28, path: 24, url: 22, 'host-port': 22, 'key-value': 20, 'issue-ref': 20, 'error-code': 18, version: 12, symbol: 10,
};
const OPAQUE = new Set<IdentifierKind>(['uuid', 'hash']);

interface Occurrence {
  value: string;
  kind: IdentifierKind;
  source: string;
}
interface MessageIdentifiers {
  agent: Occurrence[];
  user: Occurrence[];
  tool: Occurrence[];
}

const cache = new WeakMap<CanonicalMessage, MessageIdentifiers>();

function occurrences(text: string): Occurrence[] {
  return text ? findIdentifiers(text).map(({ value, kind }) => ({ value, kind, source: text })) : [];
}

function identifiersOf(message: CanonicalMessage): MessageIdentifiers {
  let found = cache.get(message);
  if (!found) {
    const agentText = message.role === 'assistant' ? [message.text, ...message.toolCalls.map((call) => argumentValues(call.input))].join('\n') : '';
    found = {
      agent: occurrences(agentText),
      user: message.role === 'user' ? occurrences(message.text) : [],
      tool: occurrences(message.toolResults.map((result) => result.text).join('\n')),
    };
    cache.set(message, found);
  }
  return found;
}

interface Candidate {
  value: string;
  kind: IdentifierKind;
  source: string;
  last: number;
  uses: number;
  byAgent: boolean;
  fromUser: boolean;
}

export interface ClosetOptions {
  readonly budgetTokens: number;
  /** True when the view already holds the value verbatim, so the closet need not. */
  readonly isPresent: (value: string) => boolean;
  /** Share of the budget the user-text lane may take. */
  readonly userLaneFraction?: number;
}

/**
 * The Coordinate Closet of messages [start, end): exact identifiers not already in the view,
 * ranked by kind, recency, use and whether the agent itself used them, each opaque value with
 * a context label (`7fd5835b ⟦changelog_id⟧`), within a token budget. Empty when nothing is missing.
 */
export function renderCloset(messages: readonly CanonicalMessage[], start: number, end: number, options: ClosetOptions): string {
  const candidates = new Map<string, Candidate>();
  for (let i = start; i < end; i++) {
    const found = identifiersOf(messages[i]);
    for (const [lane, list] of [['agent', found.agent], ['user', found.user], ['tool', found.tool]] as const) {
      for (const occurrence of list) {
        const entry = candidates.get(occurrence.value);
        if (entry) {
          entry.last = i;
          entry.uses++;
          entry.byAgent ||= lane === 'agent';
        } else candidates.set(occurrence.value, { ...occurrence, last: i, uses: 1, byAgent: lane === 'agent', fromUser: lane === 'user' });
      }
    }
  }
  const span = Math.max(1, end - start);
  const score = (candidate: Candidate) =>
    KIND_WEIGHT[candidate.kind] + (20 * (candidate.last - start)) / span + Math.min(10, candidate.uses * 2) + (candidate.byAgent ? 15 : 0);
  const ranked = [...candidates.values()].filter((candidate) => !options.isPresent(candidate.value)).sort((a, b) => score(b) - score(a) || a.last - b.last);
  const userBudget = options.budgetTokens * (options.userLaneFraction ?? 0.25);
  const items: string[] = [];
  let used = 0;
  let userUsed = 0;
  for (const candidate of ranked) {
    const label = OPAQUE.has(candidate.kind) ? extractVerbatimContextLabel(candidate.source, candidate.value) : undefined;
    const item = label ? `${candidate.value} ⟦${label}⟧` : candidate.value;
    const cost = estimateTokens(item) + 1;
    if (used + cost > options.budgetTokens) continue;
    if (candidate.fromUser && !candidate.byAgent) {
      if (userUsed + cost > userBudget) continue;
      userUsed += cost;
    }
    used += cost;
    items.push(item);
  }
  return items.length ? `${CLOSET_MARK} ${items.join(' · ')}` : '';
}
