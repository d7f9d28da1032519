/**
 * The validator kit that options, saved state, stored records and task-rail restore are read
 * with: each check returns what it read or throws a ValidationError naming the path at fault and
 * what it should have been, and `validate` turns that into the caller's own error.
 */
import { describe, expect, it } from 'vitest';
import { FoldOptionsError, WarpfoldError } from '../../src/errors.ts';
import { FoldStateError } from '../../src/freeze/fold-state-error.ts';
import {
  anything,
  arrayOf,
  boolean,
  callable,
  finite,
  integer,
  invalid,
  is,
  nonEmptyString,
  nullable,
  number,
  oneOf,
  optional,
  optionalFields,
  record,
  string,
  validate,
  type Check,
} from '../../src/validation/check.ts';
import { checkOption } from '../../src/validation/check-option.ts';
import { ValidationError } from '../../src/validation/validation-error.ts';

/** The error `check` throws for `value` at `path`. */
function refusal(check: Check<unknown>, value: unknown, path = 'options.x'): ValidationError {
  try {
    check(value, path);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error(`expected ${JSON.stringify(value)} to be refused`);
}

describe('the scalar checks', () => {
  it.each<[string, Check<unknown>, unknown[], Array<[unknown, string]>]>([
    ['string', string, ['', 'a'], [[1, 'must be a string, got 1']]],
    ['nonEmptyString', nonEmptyString, ['a'], [['', 'must be a non-empty string, got ""']]],
    ['boolean', boolean, [true, false], [['true', 'must be a boolean, got "true"']]],
    ['callable', callable, [() => 1], [[{}, 'must be a function, got an object']]],
    [
      'integer()',
      integer(),
      [0, 7],
      [
        [-1, 'must be an integer ≥ 0, got -1'],
        [1.5, 'must be an integer ≥ 0, got 1.5'],
        [2 ** 60, `must be an integer ≥ 0, got ${2 ** 60}`],
      ],
    ],
    ['integer(1)', integer(1), [1], [[0, 'must be an integer ≥ 1, got 0']]],
    [
      'number(0, 1)',
      number(0, 1),
      [0, 0.5, 1],
      [
        [Number.NaN, 'must be a number from 0 to 1, got NaN'],
        ['0.5', 'must be a number from 0 to 1, got "0.5"'],
        [1.5, 'must be a number from 0 to 1, got 1.5'],
      ],
    ],
    ['number(0)', number(0), [0, Number.POSITIVE_INFINITY], [[-1, 'must be a number ≥ 0, got -1']]],
    ['finite()', finite(), [-3, 0], [[Number.POSITIVE_INFINITY, 'must be a finite number, got Infinity']]],
    ['finite(0)', finite(0), [0, 2.5], [[-0.1, 'must be a finite number ≥ 0, got -0.1']]],
    ['oneOf', oneOf(['user', 'assistant']), ['user'], [['robot', 'must be one of user, assistant, got "robot"']]],
    ['is', is((value) => value === 42, 'the answer'), [42], [[41, 'must be the answer, got 41']]],
  ])('%s', (_, check, good, bad) => {
    for (const value of good) expect(check(value, 'options.x')).toBe(value);
    for (const [value, problem] of bad) {
      const error = refusal(check, value);
      expect([error.field, error.problem, error.message, error.code]).toEqual([
        'options.x',
        problem,
        `options.x ${problem}`,
        'invalid-field',
      ]);
    }
  });

  it('a value left out is missing, whatever the check', () => {
    for (const check of [string, integer(), number(0, 1), oneOf(['a']), record({ a: string })])
      expect(refusal(check, undefined).message).toBe('options.x is missing');
  });

  it('a long string is named by its head', () => {
    expect(refusal(integer(), 'x'.repeat(500)).problem).toBe(`must be an integer ≥ 0, got "${'x'.repeat(40)}…"`);
  });
});

describe('the composite checks', () => {
  it('optional, nullable and anything let their own values through', () => {
    expect(optional(integer())(undefined, 'a')).toBeUndefined();
    expect(nullable(integer())(null, 'a')).toBeNull();
    expect(anything(Symbol.for('x'), 'a')).toBe(Symbol.for('x'));
    expect(refusal(optional(integer()), 'x', 'a').field).toBe('a');
    expect(refusal(nullable(integer()), undefined, 'a').message).toBe('a is missing');
  });

  it('arrayOf names the index at fault', () => {
    expect(arrayOf(integer())([1, 2], 'list')).toEqual([1, 2]);
    expect(refusal(arrayOf(integer()), [1, 'two'], 'list').field).toBe('list[1]');
    expect(refusal(arrayOf(integer()), 'one', 'list').message).toBe('list must be an array, got "one"');
  });

  it('record reads known fields into a fresh object, in the order of its checks, leaving out what reads as undefined', () => {
    const check = record({ b: integer(), a: optional(string), c: nullable(string) });
    const input = { a: undefined, c: null, b: 2, extra: 'dropped' };
    const read = check(input, 'state');
    expect(read).not.toBe(input);
    expect(Object.entries(read)).toEqual([
      ['b', 2],
      ['c', null],
    ]);
    expect(refusal(check, { b: -1, c: null }, 'state').field).toBe('state.b');
    expect(refusal(check, [], 'state').message).toBe('state must be an object, got an array');
  });

  it('record names nested paths, from the root too', () => {
    const check = record({ steps: arrayOf(record({ status: oneOf(['done', 'active']) })) });
    expect(refusal(check, { steps: [{ status: 'done' }, { status: 'finished' }] }, '').message).toBe(
      'steps[1].status must be one of done, active, got "finished"',
    );
  });

  it('an exact record refuses a field it does not know, by name', () => {
    const error = refusal(record({ ttlMs: number(0), enabled: boolean }, true), { ttl: 5 }, 'freeze');
    expect([error.field, error.message]).toEqual([
      'freeze.ttl',
      'freeze has no field "ttl"; its fields are ttlMs, enabled',
    ]);
  });

  it('optionalFields makes every check optional but the required ones', () => {
    const check = record(optionalFields({ a: integer(), b: integer() }, ['b']));
    expect(check({ b: 1 }, 'x')).toEqual({ b: 1 });
    expect(refusal(check, { a: 1 }, 'x').message).toBe('x.b is missing');
  });

  it('invalid refuses for a reason of its own', () => {
    const error = refusal(() => invalid('steps', 'holds more than one active step'), null, '');
    expect([error.field, error.message]).toEqual(['steps', 'steps holds more than one active step']);
  });
});

describe('validate: a refusal becomes the caller’s own error', () => {
  it('as a FoldOptionsError, with the refusal as its cause', () => {
    let thrown: unknown;
    try {
      checkOption(record({ bandRatio: number(0, 1) }), { bandRatio: 2 }, 'foldConfig');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FoldOptionsError);
    expect(thrown).toMatchObject({
      code: 'invalid-option',
      field: 'foldConfig.bandRatio',
      message: 'options: foldConfig.bandRatio must be a number from 0 to 1, got 2',
    });
    expect((thrown as Error).cause).toBeInstanceOf(ValidationError);
  });

  it('as a FoldStateError, and anything else passes through untouched', () => {
    const toState = (error: ValidationError) => new FoldStateError('invalid-field', error.field, error.problem);
    expect(() => validate(() => integer()(-1, 'state.calls'), toState)).toThrow(
      new FoldStateError('invalid-field', 'state.calls', 'must be an integer ≥ 0, got -1'),
    );
    const other = new RangeError('not ours');
    expect(() =>
      validate(() => {
        throw other;
      }, toState),
    ).toThrow(other);
    expect(validate(() => 5, toState)).toBe(5);
  });

  it('a ValidationError is a WarpfoldError', () => {
    expect(WarpfoldError.isInstance(refusal(string, 1))).toBe(true);
    expect(ValidationError.isInstance(refusal(string, 1))).toBe(true);
  });
});
