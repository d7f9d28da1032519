import type { FoldEntry, FoldIndex } from './fold-index.ts';
import { lookupPath } from './fold-index.ts';
import { basenameOf, pathsMatch } from '../text/normalize-path.ts';
import { resolveRecallConfig, type RecallConfig } from './recall-config.ts';
import { hasSubstance, renderRecallCard } from './recall-card.ts';
import type { RecallSignal, RecallSignals } from './recall-signals.ts';
import type { RecallState, ResidentRecall } from './recall-state.ts';

/**
 * Why a card was chosen, strongest first: an earlier call on the touched path, a result that
 * named the path, a result that carried the same exact identifier.
 */
export type RecallTrigger = 'path-target' | 'path-mention' | 'identifier';

export interface RecallCard {
  /** The path or identifier in the header. */
  readonly key: string;
  readonly trigger: RecallTrigger;
  readonly signal: RecallSignal;
  readonly entryId: string;
  /** Message of the folded call. */
  readonly messageIndex: number;
  readonly text: string;
  readonly tokens: number;
}

export interface FoldRecallContext {
  readonly cards: readonly RecallCard[];
  readonly state: RecallState;
  /** Keys that matched but stayed quiet because they were recalled recently. */
  readonly withheld: readonly string[];
}

const TRIGGER_RANK: Record<RecallTrigger, number> = { 'path-target': 0, 'path-mention': 1, identifier: 2 };

interface Candidate {
  readonly trigger: RecallTrigger;
  readonly signal: RecallSignal;
  readonly signalRank: number;
  readonly entry: FoldEntry;
  readonly residencyKey: string;
  readonly terms: readonly (readonly string[])[];
}

function candidatesOf(index: FoldIndex, signals: RecallSignals): Candidate[] {
  const out: Candidate[] = [];
  signals.paths.forEach((signal, signalRank) => {
    const postings = lookupPath(index, signal.value);
    const add = (position: number, trigger: RecallTrigger) => {
      const entry = index.entries[position];
      const spelled = [
        ...new Set([signal.value, ...entry.targets.map((touch) => touch.path), ...entry.mentionedPaths]),
      ].filter((path) => path.endsWith(signal.value) || signal.value.endsWith(path));
      out.push({
        trigger,
        signal,
        signalRank,
        entry,
        residencyKey: `path:${signal.value}`,
        terms: [spelled, [basenameOf(signal.value)]],
      });
    };
    postings.targets.forEach((position) => add(position, 'path-target'));
    postings.mentions.forEach((position) => add(position, 'path-mention'));
  });
  signals.identifiers.forEach((signal, signalRank) => {
    for (const position of index.identifiers.get(signal.value) ?? []) {
      out.push({
        trigger: 'identifier',
        signal,
        signalRank,
        entry: index.entries[position],
        residencyKey: `identifier:${signal.value}`,
        terms: [[signal.value]],
      });
    }
  });
  // a call on the path that showed the whole file outranks a grep or a slice of it
  const partial = (candidate: Candidate) =>
    candidate.trigger === 'path-target' &&
    candidate.entry.wholeViews.some((path) => pathsMatch(path, candidate.signal.value))
      ? 0
      : 1;
  // strongest trigger, then the newest signal, then a whole view, then the newest folded call
  return out.sort(
    (a, b) =>
      TRIGGER_RANK[a.trigger] - TRIGGER_RANK[b.trigger] ||
      a.signalRank - b.signalRank ||
      partial(a) - partial(b) ||
      b.entry.messageIndex - a.entry.messageIndex ||
      (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0),
  );
}

function stillResident(
  record: ResidentRecall,
  call: number,
  config: { residencyCalls: number; residencyMs?: number },
  now: number | undefined,
): boolean {
  if (call - record.call > config.residencyCalls) return false;
  if (
    config.residencyMs !== undefined &&
    now !== undefined &&
    record.at !== undefined &&
    now - record.at >= config.residencyMs
  )
    return false;
  return true;
}

/**
 * Recall cards for this call: folded content the newest activity touched again, budgeted and
 * without thrashing (a key or entry shown within `residencyCalls` calls stays quiet). Call it
 * once per prepared view; each call advances the state by one pass. Pure.
 */
export function buildFoldRecallContext(
  index: FoldIndex,
  signals: RecallSignals,
  state: RecallState,
  config: Partial<RecallConfig> = {},
  now?: number,
): FoldRecallContext {
  const resolved = resolveRecallConfig(config);
  const call = state.calls + 1;
  const resident = state.resident.filter((record) => stillResident(record, call, resolved, now));
  const residentKeys = new Set(resident.map((record) => record.key));
  const residentEntries = new Set(resident.map((record) => record.entryId));
  const cards: RecallCard[] = [];
  const withheld = new Map<string, string>();
  const usedKeys = new Set<string>();
  const usedEntries = new Set<string>();
  let spent = 0;
  for (const candidate of candidatesOf(index, signals)) {
    if (cards.length >= resolved.maxCards) break;
    const { entry, residencyKey } = candidate;
    if (usedKeys.has(residencyKey) || usedEntries.has(entry.id)) continue;
    if (residentKeys.has(residencyKey) || residentEntries.has(entry.id)) {
      withheld.set(residencyKey, candidate.signal.value);
      continue;
    }
    if (!hasSubstance(entry)) continue;
    const budget = Math.min(resolved.cardTokens, resolved.totalTokens - spent);
    if (budget < resolved.minCardTokens) break;
    const card = renderRecallCard({
      entry,
      key: candidate.signal.value,
      terms: candidate.terms,
      budgetTokens: budget,
      contextLines: resolved.contextLines,
      wholeUpToTokens: candidate.trigger === 'path-target' ? budget : resolved.wholeResultTokens,
      countTokens: resolved.countTokens,
    });
    if (card === null) continue;
    cards.push({
      key: candidate.signal.value,
      trigger: candidate.trigger,
      signal: candidate.signal,
      entryId: entry.id,
      messageIndex: entry.messageIndex,
      text: card.text,
      tokens: card.tokens,
    });
    spent += card.tokens;
    usedKeys.add(residencyKey);
    usedEntries.add(entry.id);
  }
  const added: ResidentRecall[] = cards.map((card) => ({
    key: card.trigger === 'identifier' ? `identifier:${card.key}` : `path:${card.key}`,
    entryId: card.entryId,
    call,
    ...(now === undefined ? {} : { at: now }),
  }));
  for (const key of usedKeys) withheld.delete(key);
  return {
    cards,
    state: { version: 1, calls: call, resident: [...resident, ...added] },
    withheld: [...withheld.values()].sort(),
  };
}
