/** The assistant's answer after each band: a fold is a user turn, and the dialects want turns to alternate. */
export const FOLD_ACKNOWLEDGEMENT = 'Understood.';
