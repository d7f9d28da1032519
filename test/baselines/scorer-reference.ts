// What the reference scorer (../shared/bench/score.mjs) produces on the bundled sessions, recorded
// into test/fixtures/scorer-reference/ so the parity tests run from a bare clone. The recording
// comes from the scorer itself: `npx tsx scripts/record-scorer-reference.ts` runs it (when
// ../shared is beside the repo) and `--check` verifies the recording still matches it (CI does).
//
// Loading the scorer: it runs a replay when imported, so its rendering, identifier and baseline
// section is lifted out and evaluated on its own, and its summary figures come from running it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { REPO_ROOT } from '../helpers/fixtures.ts';

export const SCORER_PATH = join(REPO_ROOT, '../shared/bench/score.mjs');
export const REFERENCE_DIR = join(REPO_ROOT, 'test/fixtures/scorer-reference');
export const RECORD_COMMAND = 'npx tsx scripts/record-scorer-reference.ts';

/** Sessions the summary parity runs on (a reasoner with empty contents, SWE-agent, a tau-bench dialogue). */
export const PARITY_SESSIONS = [
  'msa-ds-reasoner-dev-sqlfluff__sqlfluff-2419.json',
  'sweagent-gpt4-pydicom__pydicom-1458.json',
  'tau-airline-gpt-4o-task02-trial1.json',
];
/** Sessions with different shapes for the per-call view parity: a terminal transcript without a system prompt, a SWE-bench run, a reasoner, a customer-service run. */
export const VIEW_SESSIONS = [
  'claudecode-console-bookminder-day021-s2.json',
  'msa-ds-chat-test-django__django-10914.json',
  'msa-ds-reasoner-dev-sqlfluff__sqlfluff-2419.json',
  'tau-airline-gpt-4o-task02-trial1.json',
];
export const BASELINES = ['raw', 'truncate', 'mask', 'clear', 'sawtooth', 'sawtooth-lines'];
export const PARITY_CEILINGS = [16_000, 8_000];

/** Messages in other dialects the scorer renders too. */
export const RENDER_SAMPLES: ReadonlyArray<Record<string, unknown>> = [
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: '/a/b.ts' } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'line 1\nline 2' }] },
      { type: 'text', text: 'and hurry' },
    ],
  },
  { role: 'model', parts: [{ text: 'Listing.' }, { functionCall: { name: 'ls', args: { dir: '.' } } }] },
  { role: 'user', parts: [{ functionResponse: { name: 'ls', response: { output: 'a\nb' } } }] },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'x', type: 'function', function: { name: 'bash', arguments: 'not json' } }],
  },
];

/** 16 hex digits of SHA-256: enough to tell recorded outputs apart, small enough to check in. */
export const digest = (value: unknown): string =>
  createHash('sha256')
    .update(typeof value === 'string' ? value : JSON.stringify(value))
    .digest('hex')
    .slice(0, 16);

type Message = Record<string, unknown>;

export interface ScorerFunctions {
  renderMessage(message: Message): string;
  identifiers(text: string): Set<string>;
  contexts(message: Message): Array<[string, string]>;
  messageShingles(message: Message): Set<string>;
  truncateView(history: Message[], ceiling: number): Message[];
  maskView(history: Message[], ceiling: number): Message[];
  clearView(history: Message[], ceiling: number, state: { cleared: Set<number> }): Message[];
  sawtoothView(
    history: Message[],
    ceiling: number,
    state: { fold: Message | null; b: number; lines: boolean },
  ): Message[];
}

export function loadScorerFunctions(scorerPath = SCORER_PATH): ScorerFunctions {
  const source = readFileSync(scorerPath, 'utf8');
  const start = source.indexOf('// ---------- rendering and identifiers ----------');
  const end = source.indexOf('async function loadFoldSession');
  if (start < 0 || end < 0) throw new Error('score.mjs layout changed: section markers not found');
  const section = source.slice(start, end);
  const build = new Function(
    'countTokens',
    'args',
    `const MASK_KEEP = 10;\n${section}\nreturn { renderMessage, identifiers, contexts, messageShingles, truncateView, maskView, clearView, sawtoothView };`,
  );
  return build(countTokens, {}) as ScorerFunctions;
}

/** The scorer's `--json` summary at one ceiling: its floor and, per strategy, its figures. */
export interface RecordedSummary {
  readonly ceiling: number;
  readonly floor: number;
  readonly summary: Record<string, Record<string, unknown>>;
}

/** Per session, ceiling and baseline: the digest of the scorer's view at every call (before each assistant message from the second on). */
export type RecordedViews = Record<string, Record<string, Record<string, string[]>>>;

/** Per session: for every message, the digest of the scorer's rendering and of its [identifiers, contexts, shingles]. */
export interface RecordedReadings {
  readonly sessions: Record<string, { render: string[]; reuse: string[] }>;
  /** The scorer's rendering of each of RENDER_SAMPLES, whole. */
  readonly samples: string[];
}

export interface ScorerReference {
  readonly summaries: RecordedSummary[];
  readonly views: RecordedViews;
  readonly readings: RecordedReadings;
}

export const REFERENCE_FILES = {
  summaries: 'replay-summaries.json',
  views: 'baseline-views.json',
  readings: 'message-readings.json',
} as const;

export function readScorerReference(): ScorerReference {
  const read = (name: string) => JSON.parse(readFileSync(join(REFERENCE_DIR, name), 'utf8'));
  return {
    summaries: read(REFERENCE_FILES.summaries),
    views: read(REFERENCE_FILES.views),
    readings: read(REFERENCE_FILES.readings),
  };
}

/** The scorer's view for one baseline, given the state its loop keeps between calls. */
export function scorerView(
  scorer: ScorerFunctions,
  name: string,
  state: Record<string, unknown>,
  history: Message[],
  ceiling: number,
): unknown[] {
  if (name === 'raw') return history;
  if (name === 'truncate') return scorer.truncateView(history, ceiling);
  if (name === 'mask') return scorer.maskView(history, ceiling);
  if (name === 'clear') return scorer.clearView(history, ceiling, state as { cleared: Set<number> });
  return scorer.sawtoothView(history, ceiling, state as { fold: null; b: number; lines: boolean });
}

/** The state the scorer's loop starts each baseline with. */
export const initialBaselineState = (name: string): Record<string, unknown> => ({
  cleared: new Set<number>(),
  fold: null,
  b: 2,
  lines: name === 'sawtooth-lines',
});

/** Indices of the calls a replay makes: before every assistant message from the second message on. */
export const callIndices = (messages: readonly Message[]): number[] =>
  messages.flatMap((message, index) => (message.role === 'assistant' && index > 0 ? [index] : []));

/** Digests a sequence of per-call views of one baseline. */
export function viewDigests(messages: Message[], view: (history: Message[]) => unknown): string[] {
  return callIndices(messages).map((index) => digest(view(messages.slice(0, index))));
}

/** What one message reads as: its rendering and its [identifiers, contexts, shingles]. */
export function readingDigests(
  message: Message,
  read: {
    render: (message: Message) => string;
    identifiers: (text: string) => Set<string>;
    contexts: (message: Message) => Array<[string, string]>;
    shingles: (message: Message) => Set<string>;
  },
): { render: string; reuse: string } {
  const rendered = read.render(message);
  return {
    render: digest(rendered),
    reuse: digest([[...read.identifiers(rendered)], read.contexts(message), [...read.shingles(message)]]),
  };
}
