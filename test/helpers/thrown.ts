import { expect } from 'vitest';

/** The error `run` throws, checked to be an instance of `type` when given; fails the test when nothing is thrown. */
export function thrownBy<T extends Error = Error>(run: () => unknown, type?: abstract new (...args: never[]) => T): T {
  try {
    run();
  } catch (error) {
    if (type) expect(error).toBeInstanceOf(type);
    return error as T;
  }
  throw new Error(`expected ${type ? `a ${type.name}` : 'a throw'}, nothing was thrown`);
}
