import { FoldInputError } from '../messages/fold-input-error.ts';
import { DIALECTS } from '../messages/types.ts';
import type { FoldFreezeState } from './freeze-state.ts';
import { restoreRecallState } from '../recall/recall-state.ts';

export type SerializedFoldFreezeState = FoldFreezeState;

export function serializeFoldFreezeState(state: FoldFreezeState): string {
  return JSON.stringify(state);
}

const isInteger = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** Parses and checks a serialized state; a bad one is rejected whole with a typed error naming the field. */
export function restoreFoldFreezeState(serialized: string | SerializedFoldFreezeState): FoldFreezeState {
  let value: unknown = serialized;
  if (typeof serialized === 'string') {
    try {
      value = JSON.parse(serialized);
    } catch {
      throw new FoldInputError(-1, 'restored freeze state is not valid JSON');
    }
  }
  const state = value as Record<string, unknown>;
  const fail = (field: string): never => {
    throw new FoldInputError(-1, `restored freeze state has a bad ${field}`);
  };
  if (state === null || typeof state !== 'object') fail('value');
  if (state.version !== 1) fail('version');
  if (!(DIALECTS as readonly unknown[]).includes(state.dialect)) fail('dialect');
  for (const field of ['configFingerprint', 'headEnd', 'coveredEnd', 'coveredFingerprint', 'lastViewTokens', 'epochs', 'hotReuses', 'calls'])
    if (!isInteger(state[field])) fail(field);
  const calibration = (state.calibration ?? {}) as Record<string, unknown>;
  const anchor = calibration.anchor;
  const anchorValid = anchor === null || (Array.isArray(anchor) && anchor.length === 2 && anchor.every((value: unknown) => typeof value === 'number'));
  if (!(typeof calibration.factor === 'number' && calibration.factor >= 1 && typeof calibration.overhead === 'number' && calibration.overhead >= 0 && anchorValid)) fail('calibration');
  if (!(state.lastCallAt === null || typeof state.lastCallAt === 'number')) fail('lastCallAt');
  if (!Array.isArray(state.bands)) fail('bands');
  let previousEnd = state.headEnd as number;
  const seed = state.seed as Record<string, unknown> | null;
  if (seed !== null) {
    if (typeof seed !== 'object' || typeof seed.text !== 'string' || !isInteger(seed.tokens) || !isInteger(seed.end)) fail('seed');
    previousEnd = seed.end as number;
  }
  for (const band of state.bands as Array<Record<string, unknown>>) {
    if (typeof band !== 'object' || band === null || typeof band.text !== 'string' || !isInteger(band.start) || !isInteger(band.end) || !isInteger(band.tokens) || !Array.isArray(band.lineKeys) || typeof band.estimateScale !== 'number') fail('band');
    if ((band.start as number) !== previousEnd || (band.end as number) <= (band.start as number)) fail('band range');
    previousEnd = band.end as number;
  }
  if ((state.coveredEnd as number) < previousEnd) fail('coveredEnd');
  if (state.clipped === null || typeof state.clipped !== 'object') fail('clipped');
  if (!isInteger(state.seenLength)) fail('seenLength');
  if (!Array.isArray(state.cards)) fail('cards');
  for (const card of state.cards as Array<Record<string, unknown>>)
    if (card === null || typeof card !== 'object' || !isInteger(card.afterIndex) || typeof card.text !== 'string' || !isInteger(card.tokens) || (card.afterIndex as number) < (state.coveredEnd as number)) fail('card');
  if (state.recall !== null) state.recall = restoreRecallState(state.recall);
  return state as unknown as FoldFreezeState;
}
