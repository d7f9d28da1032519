import type { ProviderMessage } from '../../messages/types.ts';
import type { FoldOutcome, FoldPrepareOptions } from '../../session/fold-outcome.ts';
import type { FoldSession } from '../../session/fold-session.ts';
import { readResponsesUsage, type ResponsesUsageLike } from './read-responses-usage.ts';

export interface FoldResponsesInputOptions extends Omit<FoldPrepareOptions, 'measuredInputTokens'> {
  /** The previous response's `usage`: its `input_tokens` measured the previous view. */
  readonly usage?: ResponsesUsageLike | null;
}

export interface FoldedResponsesInput<ITEM extends object> {
  /** The `input` to send: unfolded items are the host's own objects, reasoning items untouched. */
  readonly input: ITEM[];
  readonly outcome: FoldOutcome;
}

/**
 * Folds a Responses `input` item list for `client.responses.create({ input })`. Keep the raw
 * items (with each response's `output` items and your `function_call_output`s appended) and
 * send the folded `input`; folds are input messages, so the sealed prefix stays byte-stable.
 */
export function foldResponsesInput<ITEM extends object>(
  session: FoldSession,
  input: readonly ITEM[],
  options: FoldResponsesInputOptions = {},
): FoldedResponsesInput<ITEM> {
  const { usage, ...prepare } = options;
  const measured = readResponsesUsage(usage)?.inputTokens;
  const outcome = session.prepare(
    input as unknown as ProviderMessage[],
    measured === undefined ? prepare : { ...prepare, measuredInputTokens: measured },
  );
  return { input: outcome.messages as unknown as ITEM[], outcome };
}
