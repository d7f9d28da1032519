import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The fixed session every scripted provider plays: `steps` shell commands, one per model turn,
 * each printing 14–29 KB (a generated source-like file, or a `seq` range), then one text answer.
 *
 * The provider is stateless: it reads where the session stands from the request itself. Every
 * command carries a shell comment `# warpfold-step N`; the highest N found in a request is the
 * last step the client ran, so a retried request, a proxy restart, a folded history (the live
 * turn is never folded) or a compaction summary (which repeats the marker) all continue right.
 */
export const STEP_MARKER = 'warpfold-step';
export const DEFAULT_STEPS = 42;
/** The text every final answer starts with; tests look for it in the client's output. */
export const FINAL_ANSWER_PREFIX = 'SCRIPTED-DONE';
/** The folder, inside the client's working directory, holding the files the commands print. */
export const DATA_FOLDER = 'data';

const MARKER_PATTERN = new RegExp(`${STEP_MARKER} (\\d+)`, 'g');

export interface ScriptStep {
  readonly index: number;
  /** The shell command, ending with its step marker. */
  readonly command: string;
  /** A short description, for tools that take one (Claude Code's Bash, Gemini's run_shell_command). */
  readonly description: string;
}

/** Every fifth step prints a `seq` range, the others a generated file; all between 14 and 29 KB. */
export function scriptStep(index: number): ScriptStep {
  const marker = `# ${STEP_MARKER} ${index}`;
  if (index % 5 === 4) {
    // six-digit numbers, 7 bytes a line: 2,000–4,100 lines is 14–29 KB, under pi's 2,000-line cut only at the low end
    const first = 100_000 + index * 10_000;
    const lines = 2_000 + ((index * 7) % 15) * 150;
    return {
      index,
      command: `seq ${first} ${first + lines - 1} ${marker}`,
      description: `Print ${lines} numbers for step ${index}`,
    };
  }
  return {
    index,
    command: `cat ${DATA_FOLDER}/part-${String(index).padStart(2, '0')}.txt ${marker}`,
    description: `Show data file ${index}`,
  };
}

/** The size in bytes of step `index`'s generated file: 14–29 KB, varied. */
export function dataFileBytes(index: number): number {
  return 14_000 + ((index * 3_701) % 15_000);
}

/** Deterministic source-like text of about `bytes` bytes, with identifiers a fold can keep. */
export function dataFileText(index: number, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let line = 0; size < bytes; line++) {
    const id = `${index.toString(36)}${(line * 7919 + index * 104_729).toString(36)}`;
    const text =
      line % 9 === 0
        ? `export function handler_${id}(request: Request_${index}): Promise<Response> { // part ${index} line ${line}`
        : `  const value_${id} = await store.read("key-${id}", { retries: ${line % 5}, timeoutMs: ${(line * 37) % 1000} });`;
    lines.push(text);
    size += text.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the files the script's `cat` steps print into `workDirectory/data/`. */
export function writeScriptData(workDirectory: string, steps = DEFAULT_STEPS): void {
  const folder = join(workDirectory, DATA_FOLDER);
  mkdirSync(folder, { recursive: true });
  for (let index = 0; index < steps; index++)
    writeFileSync(
      join(folder, `part-${String(index).padStart(2, '0')}.txt`),
      dataFileText(index, dataFileBytes(index)),
    );
}

/** The last step a request shows the client ran, or -1 before the first. */
export function lastStepSeen(requestText: string): number {
  let last = -1;
  for (const match of requestText.matchAll(MARKER_PATTERN)) last = Math.max(last, Number(match[1]));
  return last;
}

/** The prompt a test gives the client: it names no marker, so the first request shows step -1. */
export const SCRIPTED_PROMPT =
  'Run the scripted inspection: execute each shell command you are given, one after another, then report.';

export function finalAnswer(stepsRun: number): string {
  return `${FINAL_ANSWER_PREFIX}: ran ${stepsRun} scripted steps.`;
}

/** What the provider answers a compaction prompt with: a summary that keeps the step marker. */
export function compactionSummary(lastStep: number): string {
  return `Summary of the session so far: the scripted inspection ran its shell commands up to ${STEP_MARKER} ${lastStep}. Continue with the next step.`;
}

/** Claude Code appends this to the last user message when it compacts. */
export const CLAUDE_COMPACTION_TEXT = 'CRITICAL: Respond with TEXT ONLY';
/** Codex with a custom provider sends `tools: []` and this prompt. */
export const CODEX_COMPACTION_TEXT = 'CONTEXT CHECKPOINT COMPACTION';
