import type { StrategyDefinition } from './types.ts';

export const rawStrategy: StrategyDefinition = {
  name: 'raw',
  description: 'the whole history, unbounded: the reference for retention and cache',
  create: () => ({ prepare: (history) => ({ messages: history }) }),
};
