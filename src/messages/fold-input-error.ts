// The two input errors every layer throws live beside the root, at the bottom of the layers.
export { FoldInputError, FoldOptionsError } from '../errors.ts';
