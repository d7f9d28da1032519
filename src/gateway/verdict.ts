/** What the gateway did with a request: sent a folded view, sent it as it came, or sent it as it came and folded on the side. */
export type Verdict = 'folded' | 'passthrough' | 'shadow';

export const VERDICT_HEADER = 'x-warpfold-verdict';

/** `folded`, or `passthrough; reason=under-ceiling`: the reason a token (no spaces, commas or semicolons). */
export function verdictHeader(verdict: Verdict, reason?: string): string {
  if (reason === undefined || reason === '') return verdict;
  return `${verdict}; reason=${reason.replace(/[^A-Za-z0-9._:-]+/g, '-').slice(0, 120)}`;
}
