import { MINIMUM_PRESSURE_CEILING_TOKENS } from '../../budget/resolve-context-budget.ts';
import { writeFileSync } from 'node:fs';
import { FoldSession } from '../../session/fold-session.ts';
import type { ProviderMessage } from '../../messages/types.ts';
import { TranscriptFormatError } from '../../transcripts/transcript-format-error.ts';
import { choiceOption, integerOption, parseCommandArguments, stringOption } from './arguments.ts';
import type { CliOutput } from './cli-output.ts';
import { ceilingForSession, engineOf } from './context-ceiling.ts';
import { FOLD_HELP } from './help-texts.ts';
import { CALL_INTERVAL_MILLISECONDS, createMeasure, isModelTurn } from './report-replay.ts';
import { reportIssues } from './report-command.ts';
import { readSessionFile } from './read-session-file.ts';
import { loadTokenCounter } from './token-counting.ts';
import { EXIT_FILE_FAILED, EXIT_OK, UsageError } from './usage-error.ts';

/** Indexes of the messages each model call wrote: every assistant (or Gemini `model`) message after the first. */
export function callIndexes(messages: readonly ProviderMessage[]): number[] {
  const indexes: number[] = [];
  messages.forEach((message, index) => {
    if (index > 0 && isModelTurn(message)) indexes.push(index);
  });
  return indexes;
}

/** `warpfold fold`: the folded view at one model call, as the replay would have sent it. */
export async function foldCommand(args: readonly string[], output: CliOutput): Promise<number> {
  const { values, positionals } = parseCommandArguments('fold', args, {
    ceiling: { type: 'string' },
    model: { type: 'string' },
    at: { type: 'string' },
    out: { type: 'string' },
    receipt: { type: 'string' },
    tokenizer: { type: 'string' },
  });
  if (values.help) {
    output.stdout.write(FOLD_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0 ? 'name one transcript FILE' : `fold takes one FILE, got ${positionals.length}`,
      'fold',
    );
  const [file] = positionals;
  const ceilingOption = integerOption('fold', 'ceiling', values.ceiling, MINIMUM_PRESSURE_CEILING_TOKENS);
  const at = integerOption('fold', 'at', values.at, 1);
  // o200k is the only counter; the flag stays accepted for scripts that pass it
  choiceOption('fold', 'tokenizer', values.tokenizer, ['o200k'] as const);
  let read;
  try {
    read = await readSessionFile(file);
  } catch (error) {
    output.warn(
      `${file}: ${error instanceof TranscriptFormatError ? error.message : `cannot read: ${(error as Error).message}`}`,
    );
    return EXIT_FILE_FAILED;
  }
  reportIssues(file, read.issues, output);
  const calls = callIndexes(read.messages);
  // a history with no model call yet is folded as it stands: one call on everything
  const stops = calls.length > 0 ? calls : [read.messages.length];
  if (at !== undefined && at > stops.length)
    throw new UsageError(`--at ${at}: ${file} has ${stops.length} model call${stops.length === 1 ? '' : 's'}`, 'fold');
  const last = at ?? stops.length;
  const counter = loadTokenCounter();
  const ceiling = ceilingForSession(
    { ceiling: ceilingOption, model: stringOption(values.model) },
    read.metadata.model,
    engineOf(read.format, read.dialect),
    'fold',
  );
  let clock = 0;
  const session = new FoldSession({
    pressureCeiling: ceiling.ceiling,
    countTokens: counter.countTokens,
    now: () => clock,
    keepReceipts: true,
  });
  let view: readonly ProviderMessage[] = [];
  let measured: number | undefined;
  const measure = createMeasure(counter.countTokens);
  for (let call = 0; call < last; call++) {
    clock += CALL_INTERVAL_MILLISECONDS;
    const outcome = session.prepare(read.messages.slice(0, stops[call]), { measuredInputTokens: measured });
    view = outcome.messages;
    measured = view.reduce((total, message) => total + measure.messageTokens(message), 0);
  }
  const text = `${JSON.stringify(view, null, 2)}\n`;
  const out = stringOption(values.out);
  if (out === undefined) output.stdout.write(text);
  else writeFileSync(out, text);
  const receiptFile = stringOption(values.receipt);
  if (receiptFile !== undefined)
    writeFileSync(
      receiptFile,
      `${JSON.stringify({ file, dialect: read.dialect, call: last, of: stops.length, ceiling: ceiling.ceiling, receipts: session.receipts() }, null, 2)}\n`,
    );
  output.warn(
    `call ${last} of ${stops.length}: ${view.length} messages (${read.dialect}), ceiling ${ceiling.ceiling.toLocaleString('en-US')} (${ceiling.explanation})${out ? ` → ${out}` : ''}${receiptFile ? `, receipt → ${receiptFile}` : ''}`,
  );
  return EXIT_OK;
}
