/**
 * A dialect-free agent script (system prompt, user turns, assistant steps with tool calls and
 * their results) and the deterministic builders that fill it with realistic text: paths,
 * commands, UUIDs, SHAs, ports, URLs, error codes, log lines. The fast-check arbitraries in
 * `arbitraries.ts` pick the structure and a seed per step; the bulk text comes from a small
 * seeded PRNG here, so generation stays fast even for 60,000-character tool results.
 */

import { seededRandom } from './workloads/seeded-random.ts';

export interface CanonicalCall {
  /** Dialect-neutral id token; the converter adds `call_` / `toolu_` or leaves Gemini ids off. */
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

export interface CanonicalResult {
  readonly text: string;
  readonly isError: boolean;
}

export interface CanonicalStep {
  readonly thinking?: string;
  readonly text?: string;
  readonly calls: readonly CanonicalCall[];
  /** Parallel to `calls`; empty for a pending step (the history ends on the call). */
  readonly results: readonly CanonicalResult[];
}

export interface CanonicalTurn {
  readonly instruction: string;
  readonly steps: readonly CanonicalStep[];
  /** Final assistant prose of the turn, when the turn is complete. */
  readonly reply?: string;
}

export interface CanonicalScript {
  readonly system: string;
  readonly turns: readonly CanonicalTurn[];
}

// ── seeded PRNG ──────────────────────────────────────────────────────────────────────────

export type Random = () => number;

/** The bench's seeded PRNG (mulberry32), so generated histories are the same on every run. */
export const makeRandom: (seed: number) => Random = seededRandom;

export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
export const between = (random: Random, min: number, max: number): number =>
  min + Math.floor(random() * (max - min + 1));

const HEX = '0123456789abcdef';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function hex(random: Random, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += HEX[Math.floor(random() * 16)];
  return out;
}

export function alnum(random: Random, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[Math.floor(random() * ALNUM.length)];
  return out;
}

export const sha = (random: Random): string => hex(random, 40);
export const uuid = (random: Random): string =>
  `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-${pick(random, ['8', '9', 'a', 'b'])}${hex(random, 3)}-${hex(random, 12)}`;

// ── vocabulary ───────────────────────────────────────────────────────────────────────────

const WORDS = [
  'parser',
  'schema',
  'cache',
  'session',
  'token',
  'worker',
  'router',
  'handler',
  'config',
  'loader',
  'encoder',
  'decoder',
  'invoice',
  'booking',
  'flight',
  'reservation',
  'payment',
  'ledger',
  'queue',
  'buffer',
  'stream',
  'client',
  'server',
  'model',
  'field',
  'record',
  'report',
  'metric',
  'window',
  'budget',
  'limit',
  'offset',
  'cursor',
  'index',
  'shard',
  'replica',
];
const PROSE = [
  'Let me look at',
  'I will check',
  'Next I need to inspect',
  'The failure comes from',
  'It looks like',
  'I suspect',
  'Now I can update',
  'To confirm, I will run',
  'The test still fails because',
  'Good, that fixed',
];
const MODULES = ['src', 'lib', 'app', 'pkg', 'internal', 'tests'];
const EXTENSIONS = ['ts', 'py', 'go', 'rs', 'json', 'md'];
const ERROR_CODES = ['ENOENT', 'EACCES', 'ECONNREFUSED', 'E1101', 'TS2345', 'HTTP 404'];
const AIRPORTS = ['JFK', 'SFO', 'LAX', 'ORD', 'SEA', 'BOS', 'MIA', 'DFW'];

export const word = (random: Random): string => pick(random, WORDS);
export const words = (random: Random, count: number): string =>
  Array.from({ length: count }, () => word(random)).join(' ');
export const path = (random: Random): string =>
  `/work/repo/${pick(random, MODULES)}/${word(random)}/${word(random)}_${word(random)}.${pick(random, EXTENSIONS)}`;
export const port = (random: Random): number => between(random, 3000, 9999);
export const issueUrl = (random: Random): string =>
  `https://github.com/acme/${word(random)}-${word(random)}/issues/${between(random, 10, 9999)}`;

export function sentence(random: Random): string {
  return `${pick(random, PROSE)} ${words(random, between(random, 3, 9))}.`;
}

export function paragraph(random: Random, sentences: number): string {
  return Array.from({ length: sentences }, () => sentence(random)).join(' ');
}

// ── tools ────────────────────────────────────────────────────────────────────────────────

export const TOOL_NAMES = [
  'bash',
  'read_file',
  'edit_file',
  'grep',
  'web_fetch',
  'get_reservation_details',
  'search_flights',
  'think',
] as const;
/** A Write that carries a whole file: its argument, not its output, is the big part (kept out of TOOL_NAMES, which the fixed scripts draw from). */
export const FILE_WRITE = 'write_file';
export type ToolName = (typeof TOOL_NAMES)[number] | typeof FILE_WRITE;

/** Lines of a written file for each size class. */
const WRITTEN_LINES: Record<ResultSize, number> = { empty: 1, small: 6, medium: 40, large: 300, huge: 1_200 };

/** Arguments of a call of `name`, with the identifiers a real agent would pass; a write's file has `size`. */
export function makeArguments(name: ToolName, random: Random, size: ResultSize = 'small'): Record<string, unknown> {
  switch (name) {
    case 'bash':
      return {
        command: pick(random, [
          `pytest -x tests/test_${word(random)}.py -k ${word(random)}`,
          `git show ${hex(random, 7)} --stat`,
          `git log --oneline -n ${between(random, 3, 12)}`,
          `curl -s http://localhost:${port(random)}/api/${word(random)}`,
          `npm run build && npm test -- ${word(random)}`,
          `ls -la ${path(random).replace(/\/[^/]+$/, '')}`,
        ]),
      };
    case 'read_file':
      return random() < 0.5
        ? { path: path(random) }
        : { path: path(random), offset: between(random, 1, 400), limit: between(random, 20, 200) };
    case 'edit_file':
      return {
        path: path(random),
        old_string: `const ${word(random)} = ${between(random, 1, 99)};`,
        new_string: `const ${word(random)} = ${between(random, 100, 999)};`,
      };
    case 'grep':
      return { pattern: `${word(random)}_${word(random)}\\(`, path: `/work/repo/${pick(random, MODULES)}` };
    case 'web_fetch':
      return { url: issueUrl(random) };
    case 'get_reservation_details':
      return { reservation_id: alnum(random, 6).toUpperCase() };
    case 'search_flights':
      return {
        origin: pick(random, AIRPORTS),
        destination: pick(random, AIRPORTS),
        date: `2024-05-${String(between(random, 10, 28)).padStart(2, '0')}`,
      };
    case 'think':
      return { thought: paragraph(random, 2) };
    case FILE_WRITE:
      return {
        path: path(random),
        content: Array.from({ length: WRITTEN_LINES[size] }, (_, n) => codeLine(random, n + 1)).join('\n'),
      };
  }
}

function codeLine(random: Random, n: number): string {
  return pick(random, [
    `${n}\tconst ${word(random)}${word(random)} = await ${word(random)}.${word(random)}(${word(random)});`,
    `${n}\tif (${word(random)}.${word(random)} > ${between(random, 0, 999)}) return ${word(random)};`,
    `${n}\t// ${sentence(random)}`,
    `${n}\timport { ${word(random)} } from './${word(random)}/${word(random)}.ts';`,
  ]);
}

function logLine(random: Random, n: number): string {
  return pick(random, [
    `2024-05-${String(between(random, 10, 28)).padStart(2, '0')}T12:${String(n % 60).padStart(2, '0')}:00Z INFO ${word(random)} request ${uuid(random)} took ${between(random, 1, 900)}ms`,
    `PASSED tests/test_${word(random)}.py::test_${word(random)}_${word(random)}`,
    `${hex(random, 7)} ${sentence(random)}`,
    `  at ${word(random)}.${word(random)} (${path(random)}:${between(random, 1, 500)}:${between(random, 1, 80)})`,
  ]);
}

/** Output of a successful call, about `lines` lines long. */
function successText(name: ToolName, args: Record<string, unknown>, random: Random, lines: number): string {
  switch (name) {
    case 'bash': {
      const command = String(args.command);
      if (command.startsWith('git log'))
        return Array.from({ length: lines }, () => `${sha(random)} ${sentence(random)}`).join('\n');
      if (command.startsWith('git show'))
        return [
          `commit ${sha(random)}`,
          `Author: dev <dev@example.com>`,
          '',
          ...Array.from({ length: lines }, () => ` ${path(random)} | ${between(random, 1, 40)} ++--`),
        ].join('\n');
      return Array.from({ length: lines }, (_, n) => logLine(random, n)).join('\n');
    }
    case 'read_file':
      return Array.from({ length: lines }, (_, n) => codeLine(random, n + 1)).join('\n');
    case 'edit_file':
      return `The file ${String(args.path)} has been updated.`;
    case 'grep':
      return Array.from(
        { length: lines },
        () => `${path(random)}:${between(random, 1, 900)}:  ${word(random)}_${word(random)}(${word(random)})`,
      ).join('\n');
    case 'web_fetch':
      return [
        `# ${sentence(random)}`,
        `Opened by @${word(random)} · ${issueUrl(random)}`,
        ...Array.from({ length: lines }, () => paragraph(random, 2)),
      ].join('\n');
    case 'get_reservation_details':
      return JSON.stringify({
        reservation_id: args.reservation_id,
        user_id: `${word(random)}_${word(random)}_${between(random, 1000, 9999)}`,
        payment_id: `credit_card_${between(random, 1000000, 9999999)}`,
        booking_uuid: uuid(random),
        flights: Array.from({ length: Math.max(1, Math.min(lines, 8)) }, () => ({
          flight_number: `HAT${between(random, 100, 299)}`,
          origin: pick(random, AIRPORTS),
          destination: pick(random, AIRPORTS),
          price: between(random, 90, 1400),
        })),
      });
    case 'search_flights':
      return JSON.stringify(
        Array.from({ length: lines }, () => ({
          flight_number: `HAT${between(random, 100, 299)}`,
          departure: `${String(between(random, 0, 23)).padStart(2, '0')}:00:00`,
          seats: { economy: between(random, 0, 20), business: between(random, 0, 9) },
          id: uuid(random),
        })),
      );
    case 'think':
      return '';
    case FILE_WRITE:
      return `File created successfully at: ${String(args.path)}`;
  }
}

function errorText(name: ToolName, args: Record<string, unknown>, random: Random): string {
  const code = pick(random, ERROR_CODES);
  return pick(random, [
    `Error: ${code}: no such file or directory, open '${String(args.path ?? path(random))}'`,
    `Traceback (most recent call last):\n  File "${path(random)}", line ${between(random, 1, 400)}, in ${word(random)}\n    ${word(random)}.${word(random)}()\nKeyError: '${word(random)}'`,
    `exit code 1\nFAILED tests/test_${word(random)}.py::test_${word(random)} - AssertionError: assert ${between(random, 0, 9)} == ${between(random, 10, 99)}`,
    `Error: reservation ${String(args.reservation_id ?? alnum(random, 6))} not found (${code})`,
  ]);
}

export type ResultSize = 'empty' | 'small' | 'medium' | 'large' | 'huge';

/** A tool result of the given size class; `huge` is 20,000–60,000 characters, bigger than any test ceiling. */
export function makeResult(
  name: ToolName,
  args: Record<string, unknown>,
  size: ResultSize,
  isError: boolean,
  random: Random,
): CanonicalResult {
  if (isError) return { text: errorText(name, args, random), isError: true };
  // a write's size is in its argument: its output is one line whatever the size
  if (name === FILE_WRITE) return { text: successText(name, args, random, 1), isError: false };
  if (size === 'empty') return { text: '', isError: false };
  const lines =
    size === 'small'
      ? between(random, 1, 8)
      : size === 'medium'
        ? between(random, 20, 80)
        : size === 'large'
          ? between(random, 100, 250)
          : 0;
  if (size !== 'huge') return { text: successText(name, args, random, lines), isError: false };
  const target = between(random, 20_000, 60_000);
  // repeat a block of generated lines with a running counter: fast, and still line-by-line distinct
  const block = Array.from({ length: 40 }, (_, n) => logLine(random, n));
  const out: string[] = [];
  let length = 0;
  for (let n = 0; length < target; n++) {
    const line = `${n} ${block[n % block.length]}`;
    out.push(line);
    length += line.length + 1;
  }
  return { text: out.join('\n'), isError: false };
}

export function makeInstruction(random: Random): string {
  const line = pick(random, [
    `Fix the failing test in ${path(random)} and keep the public API of ${word(random)} unchanged.`,
    `Please cancel reservation ${alnum(random, 6).toUpperCase()} and refund to the original payment method.`,
    `Bump the ${word(random)} dependency, then run the ${word(random)} suite on port ${port(random)}.`,
    `Investigate ${issueUrl(random)} and propose a patch for the ${word(random)} ${word(random)}.`,
    `Commit ${hex(random, 7)} broke the ${word(random)}; find out why and revert only what is needed.`,
  ]);
  return random() < 0.3 ? `${line}\nAlso: ${sentence(random)}` : line;
}

export function makeSystemPrompt(random: Random, sentences: number): string {
  return `You are a careful software agent working in /work/repo. ${paragraph(random, sentences)}`;
}
