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

/** Splits JSONL text and parses every non-blank line; a line that fails is an issue, never a throw. */
export function parseJsonLines(text: string): JsonLinesResult {
  const records: JsonLine[] = [];
  const issues: TranscriptIssue[] = [];
  let nonBlankLines = 0;
  // A byte-order mark would make the first line unparseable.
  const lines = (text.startsWith('\uFEFF') ? text.slice(1) : text).split('\n');
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index].endsWith('\r') ? lines[index].slice(0, -1) : lines[index];
    if (raw.trim() === '') continue;
    nonBlankLines++;
    try {
      records.push({ line: index + 1, value: JSON.parse(raw) });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      issues.push({ line: index + 1, kind: 'unparseable', detail: `${reason} (starts ${JSON.stringify(raw.slice(0, PREVIEW_CHARS))})` });
    }
  }
  return { records, issues, nonBlankLines };
}

export function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

export function numberField(record: Record<string, unknown> | undefined, key: string): number {
  const value = record?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
