import type { ToolResult } from '../messages/types.ts';
import { headOf } from '../text/safe-cut.ts';

export interface ToolOutcome {
  readonly status: 'ok' | 'error' | 'pending';
  /** First line that tells what failed, for errors. */
  readonly errorLine?: string;
  readonly lineCount: number;
}

const ERROR_LINE =
  /(Traceback \(most recent call last\)|^\s*\w*(Error|Exception)\b[:\s]|\berror(\[\w+\])?:|\bFAILED\b|command not found|No such file or directory|Permission denied|exit (code|status) [1-9]|^fatal:|\bpanic:)/i;

/** Whether a line reads as a failure; used both for outcomes and to keep error lines in folds. */
export function isErrorLine(line: string): boolean {
  return ERROR_LINE.test(line);
}

const EXCEPTION_LINE = /^\s*[\w.]*(Error|Exception|Exit|Interrupt)\b.*:|^\s*E\s{2,}\S/;

/** The line that says what went wrong: a traceback's final exception, else the first error line. */
function telltaleErrorLine(lines: readonly string[], flagged: boolean): string | undefined {
  const traceback = lines.findIndex((line) => line.includes('Traceback (most recent call last)'));
  if (traceback >= 0) {
    for (let i = lines.length - 1; i > traceback; i--) if (EXCEPTION_LINE.test(lines[i])) return lines[i].trim();
  }
  const line = lines.find(
    (candidate) => isErrorLine(candidate) && !candidate.includes('Traceback (most recent call last)'),
  );
  if (line !== undefined) return line.trim();
  return flagged ? lines.find((candidate) => candidate.trim() !== '')?.trim() : undefined;
}

export function toolOutcome(results: readonly ToolResult[]): ToolOutcome {
  if (!results.length) return { status: 'pending', lineCount: 0 };
  let lineCount = 0;
  let errorLine: string | undefined;
  let flagged = false;
  for (const result of results) {
    const lines = result.text.split('\n');
    lineCount += result.text === '' ? 0 : lines.length;
    flagged ||= result.isError;
    if (errorLine === undefined && (result.isError || lines.length < 400))
      errorLine = telltaleErrorLine(lines, result.isError);
  }
  const isError = flagged || (errorLine !== undefined && lineCount <= 60);
  return isError
    ? { status: 'error', errorLine: errorLine === undefined ? undefined : headOf(errorLine, 160), lineCount }
    : { status: 'ok', lineCount };
}
