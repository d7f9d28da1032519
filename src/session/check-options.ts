import { FoldOptionsError } from '../messages/fold-input-error.ts';
import type { TokenCounter } from '../messages/transcript.ts';
import { restoreTaskRail } from '../task-rail/restore-task-rail.ts';
import { TASK_RAIL_FORMAT_VERSION } from '../task-rail/serialized-task-rail.ts';
import type { FoldPrepareOptions } from './fold-outcome.ts';
import { isRecord as isObject } from '../text/is-record.ts';


const describe = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' ? String(value) : typeof value);

/** The options object itself: absent, or a plain object. */
function checkOptionsObject(options: unknown, what: string): Record<string, unknown> {
  if (options === undefined) return {};
  if (!isObject(options)) throw new FoldOptionsError('(options)', `${what} options must be an object or left out, got ${describe(options)}`);
  return options;
}

function expectKind(options: Record<string, unknown>, name: string, kinds: ReadonlyArray<'function' | 'object' | 'boolean' | 'string'>): void {
  const value = options[name];
  if (value === undefined) return;
  const kind = isObject(value) ? 'object' : typeof value;
  if (!(kinds as readonly string[]).includes(kind)) throw new FoldOptionsError(name, `${name} must be ${kinds.map((item) => (item === 'object' ? 'an object' : `a ${item}`)).join(' or ')}, got ${describe(value)}`);
}

/** Checks what `new FoldSession(options)` was given, before anything is built from it. */
export function checkSessionOptions(options: unknown): Record<string, unknown> {
  const checked = checkOptionsObject(options, 'FoldSession');
  expectKind(checked, 'countTokens', ['function']);
  expectKind(checked, 'now', ['function']);
  expectKind(checked, 'foldConfig', ['object']);
  expectKind(checked, 'freeze', ['boolean', 'object']);
  expectKind(checked, 'recall', ['boolean', 'object']);
  expectKind(checked, 'restoredState', ['string', 'object']);
  expectKind(checked, 'budget', ['object']);
  const keep = checked.keepReceipts;
  if (keep !== undefined && typeof keep !== 'boolean' && !(typeof keep === 'number' && Number.isInteger(keep) && keep >= 0)) throw new FoldOptionsError('keepReceipts', `keepReceipts must be a boolean or a whole number of receipts ≥ 0, got ${describe(keep)}`);
  const budget = checked.budget as Record<string, unknown> | undefined;
  if (budget && checked.pressureCeiling === undefined && typeof budget.pressureCeilingTokens !== 'number') throw new FoldOptionsError('budget', `budget.pressureCeilingTokens must be a number, got ${describe(budget.pressureCeilingTokens)}`);
  return checked;
}

/** Checks what `prepare(history, options)` was given; nothing has changed when this throws. */
export function checkPrepareOptions(options: unknown): FoldPrepareOptions {
  const checked = checkOptionsObject(options, 'prepare');
  const measured = checked.measuredInputTokens;
  if (measured !== undefined && !(typeof measured === 'number' && Number.isFinite(measured) && measured >= 0)) throw new FoldOptionsError('measuredInputTokens', `measuredInputTokens must be a non-negative number, got ${describe(measured)}`);
  expectKind(checked, 'hardEpoch', ['boolean']);
  expectKind(checked, 'hardEpochSeed', ['string']);
  if (checked.taskRail !== undefined) {
    if (!isObject(checked.taskRail)) throw new FoldOptionsError('taskRail', `taskRail must be a task rail object, got ${describe(checked.taskRail)}`);
    const read = restoreTaskRail({ ...checked.taskRail, version: TASK_RAIL_FORMAT_VERSION });
    if (!read.ok) throw new FoldOptionsError('taskRail', `taskRail${read.error.field && read.error.field !== '(root)' ? `.${read.error.field}` : ''} is not valid: ${read.error.message}`);
  }
  return checked as FoldPrepareOptions;
}

/**
 * A host counter whose every answer is checked: the engine does arithmetic on counts and stores
 * them, so NaN, a negative or a string would poison a view or a snapshot. Fractional counts
 * round up, which keeps the view under its ceiling and the stored counts whole.
 */
export function checkedCounter(countTokens: TokenCounter): TokenCounter {
  return (text: string) => {
    const tokens: unknown = countTokens(text);
    if (typeof tokens !== 'number' || !Number.isFinite(tokens) || tokens < 0)
      throw new FoldOptionsError('countTokens', `countTokens must return a non-negative finite number of tokens; it returned ${describe(tokens)} for a text of ${text.length} characters`);
    return Math.ceil(tokens);
  };
}
