import { findIdentifiers } from '../text/find-identifiers.ts';
import { keyArgument } from '../fold/key-argument.ts';
import { toolFamily } from '../fold/tool-family.ts';
import type { CanonicalMessage, ToolCall, ToolResult } from '../messages/types.ts';
import { callTouches, wholeFileViews } from './call-touches.ts';
import { basenameOf, normalizePath, pathsMatch } from '../text/normalize-path.ts';
import { pairToolCalls, type PairedToolCall } from '../messages/pair-tool-calls.ts';
import { stripRecallCards } from './recall-card-frame.ts';
import { findPathMentions } from './path-mentions.ts';
import type { PathTouch } from './shell-touches.ts';
import { headOf } from '../text/safe-cut.ts';

/** One folded tool call: what was asked, what came back, what the agent made of it. */
export interface FoldEntry {
  /** `<message index>.<position>` of the call. */
  readonly id: string;
  /** Message that made the call. */
  readonly messageIndex: number;
  /** Message that carried the result; null when none came back. */
  readonly resultIndex: number | null;
  readonly call: { readonly name: string; readonly keyArgument: string };
  /** The tool result, verbatim. */
  readonly resultText: string;
  readonly isError: boolean;
  /** Start of the assistant text right after the result: the agent's reading of it. */
  readonly conclusion: string;
  readonly conclusionIndex: number | null;
  /** Files the call's arguments name, with how. */
  readonly targets: readonly PathTouch[];
  /** Files the call showed whole (a lone `cat`, a Read with no range): the file as it then stood. */
  readonly wholeViews: readonly string[];
  /** Slash paths the result names (grep hits, tracebacks, diffs). */
  readonly mentionedPaths: readonly string[];
  /** Exact identifiers of the call and result other than paths (hashes, symbols, error codes, …). */
  readonly identifiers: readonly string[];
}

/** Entry positions for one normalised path: called on it, or merely named by a result. */
export interface PathPostings {
  readonly targets: readonly number[];
  readonly mentions: readonly number[];
}

/** The page table of everything folded. Rebuild it whenever the folded ranges change. */
export interface FoldIndex {
  readonly entries: readonly FoldEntry[];
  readonly paths: ReadonlyMap<string, PathPostings>;
  /** Basename → normalised paths with that basename: finds `/abs/x/a.py` from `x/a.py` or `a.py`. */
  readonly basenames: ReadonlyMap<string, readonly string[]>;
  readonly identifiers: ReadonlyMap<string, readonly number[]>;
  /** Sorted, merged, clamped `[start, end)` ranges the index covers. */
  readonly foldedRanges: ReadonlyArray<readonly [number, number]>;
}

export interface FoldIndexOptions {
  /** Characters of the follow-up assistant text kept as the conclusion. Default 300. */
  readonly conclusionChars?: number;
  /** Identifiers kept per entry, in order of appearance. Default 400. */
  readonly identifiersPerEntry?: number;
}

function normalizeRanges(ranges: ReadonlyArray<readonly [number, number]>, length: number): Array<[number, number]> {
  const clamped = ranges
    .map(([start, end]): [number, number] => [Math.max(0, Math.floor(start)), Math.min(length, Math.floor(end))])
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of clamped) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/** The first assistant message after the result, up to the next real user text. */
function conclusionAfter(
  messages: readonly CanonicalMessage[],
  from: number,
  chars: number,
): { text: string; index: number | null } {
  for (let i = from + 1; i < messages.length; i++) {
    const message = messages[i];
    if (message.isTurnBoundary) break;
    if (message.role !== 'assistant') continue;
    const text = message.text.trim();
    if (text === '') return { text: '', index: null };
    return { text: text.length > chars ? `${headOf(text, chars - 1)}…` : text, index: i };
  }
  return { text: '', index: null };
}

function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else if (list[list.length - 1] !== value) list.push(value);
}

/** What one call and its result say (key argument, files, mentions, identifiers), read once per pair. */
interface PairReading {
  readonly result: ToolResult | null;
  readonly identifierCap: number;
  readonly resultText: string;
  readonly key: string;
  readonly targets: readonly PathTouch[];
  readonly wholeViews: readonly string[];
  readonly targetSet: ReadonlySet<string>;
  readonly mentionedPaths: readonly string[];
  readonly identifiers: readonly string[];
}

// an index is rebuilt at every epoch over everything folded so far: each pair is read only once
const readings = new WeakMap<ToolCall, PairReading>();

function readPair(pair: PairedToolCall, identifierCap: number): PairReading {
  const cached = readings.get(pair.call);
  if (cached && cached.result === pair.result && cached.identifierCap === identifierCap) return cached;
  const resultText = stripRecallCards(pair.result?.text ?? '');
  const key = keyArgument(toolFamily(pair.call.name), pair.call.input);
  const targets = callTouches(pair.call);
  const targetSet = new Set(targets.map((touch) => touch.path));
  const mentionedPaths = findPathMentions(resultText, false).filter((path) => !targetSet.has(path));
  const identifiers: string[] = [];
  for (const identifier of findIdentifiers(`${key}\n${resultText}`)) {
    if (identifier.kind === 'path') continue;
    identifiers.push(identifier.value);
    if (identifiers.length >= identifierCap) break;
  }
  const reading = {
    result: pair.result,
    identifierCap,
    resultText,
    key,
    targets,
    wholeViews: wholeFileViews(pair.call),
    targetSet,
    mentionedPaths,
    identifiers,
  };
  readings.set(pair.call, reading);
  return reading;
}

export function buildFoldIndex(
  messages: readonly CanonicalMessage[],
  foldedRanges: ReadonlyArray<readonly [number, number]>,
  options: FoldIndexOptions = {},
): FoldIndex {
  const conclusionChars = options.conclusionChars ?? 300;
  const identifierCap = options.identifiersPerEntry ?? 400;
  const ranges = normalizeRanges(foldedRanges, messages.length);
  const folded = (index: number) => ranges.some(([start, end]) => index >= start && index < end);
  const entries: FoldEntry[] = [];
  const targetPostings = new Map<string, number[]>();
  const mentionPostings = new Map<string, number[]>();
  const identifiers = new Map<string, number[]>();
  for (const pair of pairToolCalls(messages)) {
    if (!folded(pair.messageIndex)) continue;
    const {
      resultText,
      key,
      targets,
      wholeViews,
      targetSet,
      mentionedPaths,
      identifiers: found,
    } = readPair(pair, identifierCap);
    // the agent's reading of a result may come after the last index: worked out on every build
    const conclusion =
      pair.resultIndex === null
        ? { text: '', index: null }
        : conclusionAfter(messages, pair.resultIndex, conclusionChars);
    const position = entries.length;
    entries.push({
      id: pair.id,
      messageIndex: pair.messageIndex,
      resultIndex: pair.resultIndex,
      call: { name: pair.call.name, keyArgument: key },
      resultText,
      isError: pair.result?.isError ?? false,
      conclusion: conclusion.text,
      conclusionIndex: conclusion.index,
      targets,
      wholeViews,
      mentionedPaths,
      identifiers: found,
    });
    for (const path of targetSet) push(targetPostings, path, position);
    for (const path of mentionedPaths) push(mentionPostings, path, position);
    for (const value of found) push(identifiers, value, position);
  }
  const paths = new Map<string, PathPostings>();
  const basenames = new Map<string, string[]>();
  for (const path of new Set([...targetPostings.keys(), ...mentionPostings.keys()])) {
    paths.set(path, { targets: targetPostings.get(path) ?? [], mentions: mentionPostings.get(path) ?? [] });
    const base = basenameOf(path);
    const list = basenames.get(base);
    if (list === undefined) basenames.set(base, [path]);
    else list.push(path);
  }
  return { entries, paths, basenames, identifiers, foldedRanges: ranges };
}

/** Entry positions for a path under any spelling that names the same file (see `pathsMatch`). */
export function lookupPath(index: FoldIndex, rawPath: string): PathPostings {
  const path = normalizePath(rawPath);
  const targets = new Set<number>();
  const mentions = new Set<number>();
  for (const candidate of index.basenames.get(basenameOf(path)) ?? []) {
    if (!pathsMatch(candidate, path)) continue;
    const postings = index.paths.get(candidate);
    postings?.targets.forEach((position) => targets.add(position));
    postings?.mentions.forEach((position) => mentions.add(position));
  }
  const sorted = (set: Set<number>) => [...set].sort((a, b) => a - b);
  return { targets: sorted(targets), mentions: sorted(mentions).filter((position) => !targets.has(position)) };
}
