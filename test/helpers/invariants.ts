/**
 * The §4 invariants as one per-call checker, shared by the property tests and the scenario
 * tests: size under the ceiling, pairing and keys per dialect, skeleton lines and closet values of
 * every fold block, folds smaller than what they replace, and the latest instruction present.
 */
import { FOLD_ACKNOWLEDGEMENT } from '../../src/fold/index.ts';
import type { FoldOutcome, TokenCounter } from '../../src/index.ts';
import { isInstruction, proseOf, type Dialect, type ProviderMessage } from './dialects.ts';
import {
  closetValues,
  foldBlocks,
  keyProblems,
  pairingProblems,
  skeletonProblems,
  stringLeaves,
  syntheticText,
  textOf,
  viewTokens,
} from './view-checks.ts';

export interface ViewCheckContext {
  readonly dialect: Dialect;
  /** The raw history this call saw. */
  readonly history: readonly ProviderMessage[];
  readonly ceiling: number;
  readonly countTokens: TokenCounter;
  /** Per-message tokens of the raw history under the session's rendering (may be longer than `history`). */
  readonly rawTokens: readonly number[];
  /** Text of the raw history (all string leaves), for the closet's verbatim test. */
  readonly rawText: () => string;
  /** JSON of every raw message, when the caller wants view messages checked against them. */
  readonly rawJson?: ReadonlySet<string>;
}

/** Latest real user instruction of a history, or undefined. */
export function latestInstruction(history: readonly ProviderMessage[], dialect: Dialect): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) if (isInstruction(history[i], dialect)) return proseOf(history[i]);
  return undefined;
}

/** The invariants a problem can break, one test each in the property suite. */
export const INVARIANTS = [
  'valid input never throws',
  'input never mutated',
  'deterministic across sessions',
  'restorable from a snapshot',
  'sealed prefix byte-stable while cache-hot',
  'view at or under the ceiling',
  'tool pairing valid and no leaked fields',
  'every folded tool call has a skeleton line',
  'closet values occur verbatim in the raw history',
  'a fold is smaller than what it replaces',
  'latest instruction present',
] as const;
export type Invariant = (typeof INVARIANTS)[number];

export interface Problem {
  readonly invariant: Invariant;
  readonly detail: string;
}

/** Every problem with one outcome; an empty list when all invariants hold. */
export function viewProblems(outcome: FoldOutcome, context: ViewCheckContext): Problem[] {
  const { dialect, history, ceiling, countTokens } = context;
  const view = outcome.messages as ProviderMessage[];
  const problems: Problem[] = [];
  const report = (invariant: Invariant, details: readonly string[]) => {
    for (const detail of details) problems.push({ invariant, detail });
  };

  let tokens = 0;
  try {
    tokens = viewTokens(view, countTokens);
  } catch (error) {
    // the engine's own reader rejects the view: a host feeding it back would fail the same way
    report('tool pairing valid and no leaked fields', [`the view does not read back as a history: ${String(error)}`]);
  }
  if (tokens > ceiling)
    report('view at or under the ceiling', [
      `view is ${tokens} tokens, over the ceiling of ${ceiling} (stats: ${outcome.stats.viewTokens} tokens, ${outcome.stats.clippedMessages} clipped, sealedBoundary ${outcome.sealedBoundary}, reason ${outcome.stats.epochReason ?? 'reuse'})`,
    ]);

  report('tool pairing valid and no leaked fields', [...pairingProblems(view, dialect), ...keyProblems(view, dialect)]);
  if (context.rawJson) {
    // a view message is warpfold's own synthetic text (or the fold acknowledgement), a raw message unchanged, or a raw message clipped
    view.forEach((message, i) => {
      if (syntheticText(message) !== undefined || proseOf(message) === FOLD_ACKNOWLEDGEMENT) return;
      const json = JSON.stringify(message);
      if (!context.rawJson?.has(json) && !json.includes('[warpfold clipped'))
        report('tool pairing valid and no leaked fields', [
          `view[${i}] is neither synthetic nor a raw message: ${json.slice(0, 160)}`,
        ]);
    });
  }

  const blocks = foldBlocks(view);
  if (blocks.length !== outcome.stats.bands)
    report('every folded tool call has a skeleton line', [
      `the view holds ${outcome.stats.bands} band(s) but ${blocks.length} fold header(s) parse: did the header format change? (test/helpers/view-checks.ts FOLD_HEADER)`,
    ]);
  for (const block of blocks) {
    report('every folded tool call has a skeleton line', skeletonProblems(block, history, dialect));
    const raw = context.rawTokens.slice(block.start, block.end).reduce((sum, value) => sum + value, 0);
    if (raw !== block.rawTokens)
      report('a fold is smaller than what it replaces', [
        `fold of raw messages [${block.start}, ${block.end}) claims ${block.rawTokens} tokens folded, the raw messages are ${raw}`,
      ]);
    const folded = viewTokens([view[block.viewIndex]], countTokens);
    if (folded >= raw)
      report('a fold is smaller than what it replaces', [
        `fold of raw messages [${block.start}, ${block.end}) is ${folded} tokens, not smaller than the ${raw} it replaces`,
      ]);
  }

  let rawText: string | undefined;
  for (const message of view) {
    const text = syntheticText(message);
    if (!text) continue;
    for (const value of closetValues(text)) {
      rawText ??= context.rawText();
      if (!rawText.includes(value))
        report('closet values occur verbatim in the raw history', [
          `closet value ${JSON.stringify(value)} does not occur in the raw history`,
        ]);
    }
  }

  const instruction = latestInstruction(history, dialect);
  if (instruction !== undefined) {
    const viewText = textOf(view);
    for (const line of instruction.split('\n')) {
      const wanted = line.trim();
      if (wanted && !viewText.includes(wanted))
        report('latest instruction present', [
          `latest instruction line ${JSON.stringify(wanted.slice(0, 80))} is missing from the view (${outcome.stats.clippedMessages} clipped, ${outcome.stats.bands} band(s), reason ${outcome.stats.epochReason ?? 'reuse'})`,
        ]);
    }
  }
  return problems;
}

/** The string leaves of a leaf that is itself JSON (tool call arguments): the values as the agent wrote them. */
function parsedLeaves(leaf: string): string[] {
  if (!/^\s*[[{]/.test(leaf)) return [];
  try {
    return stringLeaves(JSON.parse(leaf));
  } catch {
    return [];
  }
}

/** Lazily joined text of raw messages [0, end), from per-message leaves computed once. */
export function rawTextOf(history: readonly ProviderMessage[]): (end: number) => string {
  const leaves = history.map((message) => {
    const own = stringLeaves(message);
    return [...own, ...own.flatMap(parsedLeaves)].join('\n') + '\n' + JSON.stringify(message);
  });
  return (end) => leaves.slice(0, end).join('\n');
}
