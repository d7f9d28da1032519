import { decodeSavedState } from './decode-saved-state.ts';
import { encodeSavedState } from './encode-saved-state.ts';
import type { FoldFreezeState } from './freeze-state.ts';
import type { SavedFoldSession } from './saved-format.ts';

export type SerializedFoldFreezeState = SavedFoldSession;

/** The saved-format JSON of a freeze state (no counter probe: the state alone does not know its counter). */
export function serializeFoldFreezeState(state: FoldFreezeState): string {
  return JSON.stringify(encodeSavedState(state, null));
}

/** Reads saved state of any known version into fresh objects; a bad one throws `FoldStateError` naming the field. */
export function restoreFoldFreezeState(serialized: unknown): FoldFreezeState {
  return decodeSavedState(serialized).state;
}
