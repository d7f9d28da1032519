import { argumentValues } from '../messages/plain-text.ts';
import type { CanonicalMessage } from '../messages/types.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { extractVerbatimContextLabel } from './context-label.ts';
import { lineShape, type IdentifierKind } from '../text/identifier-kinds.ts';
import { findIdentifiers } from '../text/find-identifiers.ts';

export const CLOSET_MARK = '⌖';

const KIND_WEIGHT: Record<IdentifierKind, number> = {
  uuid: 30, hash: 28, slug: 26, path: 24, url: 22, image: 22, 'host-port': 22, 'key-value': 20, 'issue-ref': 20, 'error-code': 18, version: 12, symbol: 10,
};
const OPAQUE = new Set<IdentifierKind>(['uuid', 'hash']);

/** One sighting of an identifier: where, in whose words, and the text around it (for its label). */
export interface ClosetOccurrence {
  readonly value: string;
  readonly kind: IdentifierKind;
  readonly source: string;
  readonly messageIndex: number;
  readonly lane: 'agent' | 'user' | 'tool';
}

const cache = new WeakMap<CanonicalMessage, ClosetOccurrence[]>();

function occurrencesOf(message: CanonicalMessage): ClosetOccurrence[] {
  let found = cache.get(message);
  if (!found) {
    const lanes: Array<[ClosetOccurrence['lane'], string]> = [
      ['agent', message.role === 'assistant' ? [message.text, ...message.toolCalls.map((call) => argumentValues(call.input))].join('\n') : ''],
      ['user', message.role === 'user' ? message.text : ''],
      ['tool', message.toolResults.map((result) => result.text).join('\n')],
    ];
    found = lanes.flatMap(([lane, text]) => (text ? findIdentifiers(text).map(({ value, kind }) => ({ value, kind, source: text, messageIndex: message.index, lane })) : []));
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
  /** When given, each kept item is pushed here (value, kind, newest message index), for a fold receipt. */
  readonly kept?: { value: string; kind: IdentifierKind; messageIndex: number }[];
}

/** Renders a closet of prepared candidates for one view: what it already holds and the budget. */
export type ClosetRenderer = (options: ClosetOptions) => string;

/**
 * The Coordinate Closet: exact identifiers not already in the view, ranked by kind, recency,
 * use and whether the agent itself used them, each opaque value with a context label
 * (`7fd5835b ⟦changelog_id⟧`), within a token budget. Empty when nothing is missing. The ranking
 * is worked out once here; a fold that tries several budgets only filters and fills.
 */
export function prepareCloset(occurrences: Iterable<ClosetOccurrence>, start: number, end: number): ClosetRenderer {
  const candidates = new Map<string, Candidate>();
  for (const occurrence of occurrences) {
    const entry = candidates.get(occurrence.value);
    if (entry) {
      entry.last = Math.max(entry.last, occurrence.messageIndex);
      entry.uses++;
      entry.byAgent ||= occurrence.lane === 'agent';
    } else candidates.set(occurrence.value, { value: occurrence.value, kind: occurrence.kind, source: occurrence.source, last: occurrence.messageIndex, uses: 1, byAgent: occurrence.lane === 'agent', fromUser: occurrence.lane === 'user' });
  }
  const span = Math.max(1, end - start);
  // how many distinct lines share each template: ids from log spam rank below one-off findings
  const shapeOf = (source: string) => (source.length <= 400 && !source.includes('\n') ? lineShape(source) : '');
  const shapes = new Map<string, number>();
  const sourceShape = new Map<string, string>();
  for (const candidate of candidates.values()) {
    if (sourceShape.has(candidate.source)) continue;
    const shape = shapeOf(candidate.source);
    sourceShape.set(candidate.source, shape);
    if (shape) shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }
  const scores = new Map<Candidate, number>();
  for (const candidate of candidates.values()) {
    const count = shapes.get(sourceShape.get(candidate.source) ?? '') ?? 1;
    const spam = count >= 3 ? 12 * Math.log2(count) : 0;
    scores.set(candidate, KIND_WEIGHT[candidate.kind] + (20 * (candidate.last - start)) / span + Math.min(10, candidate.uses * 2) + (candidate.byAgent ? 15 : 0) - spam);
  }
  const score = (candidate: Candidate) => scores.get(candidate) ?? 0;
  const ranked = [...candidates.values()].sort((a, b) => score(b) - score(a) || a.last - b.last || (a.value < b.value ? -1 : 1));
  // each candidate's rendering and size, on first need
  const items = new Map<Candidate, { item: string; cost: number }>();
  const itemOf = (candidate: Candidate) => {
    let entry = items.get(candidate);
    if (!entry) {
      const label = OPAQUE.has(candidate.kind) ? extractVerbatimContextLabel(candidate.source, candidate.value) : undefined;
      const item = label ? `${candidate.value} ⟦${label}⟧` : candidate.value;
      items.set(candidate, (entry = { item, cost: estimateTokens(item) + 1 }));
    }
    return entry;
  };
  return (options) => {
    const userBudget = options.budgetTokens * (options.userLaneFraction ?? 0.25);
    const kept: string[] = [];
    let used = 0;
    let userUsed = 0;
    for (const candidate of ranked) {
      if (options.isPresent(candidate.value)) continue;
      const { item, cost } = itemOf(candidate);
      if (used + cost > options.budgetTokens) continue;
      if (candidate.fromUser && !candidate.byAgent) {
        if (userUsed + cost > userBudget) continue;
        userUsed += cost;
      }
      used += cost;
      kept.push(item);
      options.kept?.push({ value: candidate.value, kind: candidate.kind, messageIndex: candidate.last });
    }
    return kept.length ? `${CLOSET_MARK} ${kept.join(' · ')}` : '';
  };
}

/** One closet of `occurrences` (see prepareCloset). */
export function renderClosetFrom(occurrences: Iterable<ClosetOccurrence>, start: number, end: number, options: ClosetOptions): string {
  return prepareCloset(occurrences, start, end)(options);
}

/** The closet of messages [start, end) of a transcript. */
export function renderCloset(messages: readonly CanonicalMessage[], start: number, end: number, options: ClosetOptions): string {
  const occurrences: ClosetOccurrence[] = [];
  for (let i = start; i < end; i++) occurrences.push(...occurrencesOf(messages[i]));
  return renderClosetFrom(occurrences, start, end, options);
}
