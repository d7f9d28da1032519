/** An outcome as bytes, or the error a refused call threw. */
export function answer(run: () => unknown): string {
  try {
    return JSON.stringify(run());
  } catch (error) {
    return `threw ${(error as Error).name}: ${(error as Error).message}`;
  }
}

/** Where two answers first differ, briefly (a view runs to tens of kilobytes), or undefined. */
export function difference(actual: string, expected: string): string | undefined {
  if (actual === expected) return undefined;
  let at = 0;
  while (at < actual.length && at < expected.length && actual[at] === expected[at]) at++;
  const reason = (text: string) =>
    /"epochReason":"([a-z-]+)"/.exec(text)?.[1] ?? (text.startsWith('threw') ? text.slice(0, 120) : 'none');
  return `live: ${reason(expected)}, restored: ${reason(actual)}; first difference at char ${at}: …${expected.slice(Math.max(0, at - 40), at + 40)}… against …${actual.slice(Math.max(0, at - 40), at + 40)}…`;
}
