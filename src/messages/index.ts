export { detectDialect } from './detect-dialect.ts';
export { FoldInputError } from './fold-input-error.ts';
export { argumentValues, plainMessageText } from './plain-text.ts';
export { readMessage, SYNTHETIC_MARKER, ToolCallLedger } from './read-message.ts';
export { fingerprintOf, Transcript, type TokenCounter } from './transcript.ts';
export { detectTurns, isUserTurnBoundary } from './turns.ts';
export { DIALECTS, type CanonicalMessage, type CanonicalRole, type Dialect, type ProviderMessage, type ToolCall, type ToolResult, type Turn } from './types.ts';
export { pairToolCalls, type PairedToolCall } from './pair-tool-calls.ts';
export { clipProviderMessage, clipText, writeSyntheticMessage } from './write-synthetic.ts';
