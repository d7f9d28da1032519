import type { TranscriptIssue } from './types.ts';

/** One parsed line of a JSONL file, with its 1-based line number. */
export interface JsonLine {
  readonly line: number;
  readonly value: unknown;
}

export interface JsonLinesResult {
  readonly records: JsonLine[];
  readonly issues: TranscriptIssue[];
  /** Non-blank lines seen, parsed or not. */
  readonly nonBlankLines: number;
}

const PREVIEW_CHARS = 80;

/** Collects JSONL lines one at a time, so a file can be read as a stream with the same results as `parseJsonLines`. */
export interface JsonLinesCollector {
  /** One line without its newline; `line` is its 1-based number. */
  add(text: string, line: number): void;
  result(): JsonLinesResult;
}

export function createJsonLinesCollector(): JsonLinesCollector {
  const records: JsonLine[] = [];
  const issues: TranscriptIssue[] = [];
  let nonBlankLines = 0;
  return {
    add(text, line) {
      // A byte-order mark would make the first line unparseable.
      const unmarked = line === 1 && text.startsWith('\uFEFF') ? text.slice(1) : text;
      const raw = unmarked.endsWith('\r') ? unmarked.slice(0, -1) : unmarked;
      if (raw.trim() === '') return;
      nonBlankLines++;
      try {
        records.push({ line, value: JSON.parse(raw) });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        issues.push({
          line,
          kind: 'unparseable',
          detail: `${reason} (starts ${JSON.stringify(raw.slice(0, PREVIEW_CHARS))})`,
        });
      }
    },
    result: () => ({ records, issues, nonBlankLines }),
  };
}

/** Splits JSONL text and parses every non-blank line; a line that fails is an issue, never a throw. */
export function parseJsonLines(text: string): JsonLinesResult {
  const collector = createJsonLinesCollector();
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) collector.add(lines[index], index + 1);
  return collector.result();
}

export function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

export function numberField(record: Record<string, unknown> | undefined, key: string): number {
  const value = record?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
