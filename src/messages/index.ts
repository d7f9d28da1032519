export { detectDialect } from './dialects/index.ts';
export { FoldInputError, FoldOptionsError } from './fold-input-error.ts';
export { checkValueShape, MAX_VALUE_DEPTH } from './value-guard.ts';
export { argumentValues, plainMessageText } from './plain-text.ts';
export { readMessage, SYNTHETIC_MARKER } from './read-message.ts';
export { ToolCallLedger } from './tool-call-ledger.ts';
export { fingerprintOf, Transcript, type TokenCounter } from './transcript.ts';
export { detectTurns, isUserTurnBoundary } from './turns.ts';
export {
  DIALECTS,
  type CanonicalMessage,
  type CanonicalRole,
  type Dialect,
  type ProviderMessage,
  type ToolCall,
  type ToolResult,
  type Turn,
} from './types.ts';
export { pairToolCalls, type PairedToolCall } from './pair-tool-calls.ts';
export { clipProviderMessage, clipText, writeSyntheticMessage } from './write-synthetic.ts';
