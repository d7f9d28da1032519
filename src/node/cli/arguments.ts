import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArguments {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: string[];
}

/** `parseArgs` in strict mode; its errors become usage errors naming the command. */
export function parseCommandArguments(command: string, args: readonly string[], options: Options): ParsedArguments {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { help: { type: 'boolean', short: 'h' }, ...options },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as ParsedArguments['values'], positionals };
  } catch (error) {
    throw new UsageError(
      error instanceof Error ? error.message.replace(/\. To specify a positional argument.*$/s, '') : String(error),
      command,
    );
  }
}

/** A whole number of at least `minimum`, or undefined when the option is absent. */
export function integerOption(
  command: string,
  name: string,
  value: string | boolean | undefined,
  minimum: number,
): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).replace(/[_,]/g, '');
  const number = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(number) || number < minimum)
    throw new UsageError(`--${name} must be a whole number of at least ${minimum}, got "${String(value)}"`, command);
  return number;
}

export function stringOption(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function choiceOption<T extends string>(
  command: string,
  name: string,
  value: string | boolean | undefined,
  choices: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!choices.includes(value as T))
    throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got "${String(value)}"`, command);
  return value as T;
}
