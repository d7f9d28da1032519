/** What the gateway did with a request: sent a folded view, sent it as it came, or sent it as it came and folded on the side. */
export type Verdict = 'folded' | 'passthrough' | 'shadow';

export const VERDICT_HEADER = 'x-warpfold-verdict';

/** On a call that sealed a new prefix (the provider's cache is written again from there): the engine's reason. */
export const EPOCH_HEADER = 'x-warpfold-epoch';

/** On a call that belongs to a gateway session: its id, as `GET /warpfold/sessions/:id` takes it. */
export const SESSION_HEADER = 'x-warpfold-session-id';

/** What an answer's headers say of its call beside the verdict. */
export interface CallMarks {
  readonly session?: string;
  readonly epochReason?: string;
}

/** `folded`, or `passthrough; reason=under-ceiling`: the reason a token (no spaces, commas or semicolons). */
export function verdictHeader(verdict: Verdict, reason?: string): string {
  if (reason === undefined || reason === '') return verdict;
  return `${verdict}; reason=${reason.replace(/[^A-Za-z0-9._:-]+/g, '-').slice(0, 120)}`;
}
