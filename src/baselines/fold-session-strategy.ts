// warpfold itself as one of the compared strategies, driven the way the reference scorer drives an
// engine: `new FoldSession({ pressureCeiling, now, countTokens })`, then `prepare(history, { measuredInputTokens })`.
import { FoldSession, type FoldSessionOptions } from '../session/index.ts';
import type { BaselineMessage, PrepareOptions, StrategyDefinition } from './types.ts';

/** The part of an engine the comparison relies on: any build of FoldSession (another version's `dist/index.js`, say). */
export interface FoldSessionLike {
  prepare(
    history: readonly BaselineMessage[],
    options: PrepareOptions,
  ): { readonly messages: readonly BaselineMessage[] };
}

export type FoldSessionConstructor = new (options: {
  pressureCeiling: number;
  countTokens?: (text: string) => number;
  now?: () => number;
  [option: string]: unknown;
}) => FoldSessionLike;

/** A strategy over a FoldSession class; `options` are added to the scorer's three (and win over them). */
export function foldSessionStrategy(
  engine: FoldSessionConstructor,
  options: Readonly<Record<string, unknown>> = {},
): StrategyDefinition {
  return {
    name: 'warpfold',
    description: 'FoldSession from this project, driven as the reference scorer drives it',
    create: ({ ceiling, countTokens, now }) => {
      const session = new engine({ pressureCeiling: ceiling, now, countTokens, ...options });
      return {
        prepare: (history, prepareOptions) => ({ messages: session.prepare(history, prepareOptions).messages }),
      };
    },
  };
}

/** This package's FoldSession as a strategy, with extra FoldSession options if given. */
export function warpfoldStrategy(
  options: Omit<FoldSessionOptions, 'pressureCeiling' | 'countTokens' | 'now'> = {},
): StrategyDefinition {
  return foldSessionStrategy(FoldSession as unknown as FoldSessionConstructor, options as Record<string, unknown>);
}
