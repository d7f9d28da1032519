// `--name value` and bare `--flag` arguments, the same convention as the reference scorer.
export type ParsedArguments = Readonly<Record<string, string>>;

export function parseArguments(argv: readonly string[]): ParsedArguments {
  const parsed: Record<string, string> = {};
  argv.forEach((argument, index) => {
    if (!argument.startsWith('--')) return;
    const next = argv[index + 1];
    parsed[argument.slice(2)] = next !== undefined && !next.startsWith('--') ? next : 'true';
  });
  return parsed;
}

export function numberList(value: string | undefined, fallback: readonly number[]): number[] {
  if (value === undefined) return [...fallback];
  return value.split(',').map((item) => {
    const number = Number(item.trim().replace(/_/g, ''));
    if (!Number.isFinite(number) || number <= 0) throw new Error(`not a positive number: "${item}"`);
    return number;
  });
}

export function nameList(value: string | undefined, fallback: readonly string[]): string[] {
  if (value === undefined) return [...fallback];
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
