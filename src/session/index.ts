export {
  DEFAULT_FOLD_PRESSURE_CEILING_TOKENS,
  DEFAULT_RECEIPT_LOG_LENGTH,
  FOLD_ACKNOWLEDGEMENT,
  FoldSession,
  type FoldSessionOptions,
} from './fold-session.ts';
export type { FoldOutcome, FoldPrepareOptions, FoldStats } from './fold-outcome.ts';
export { FOLD_RECEIPT_FORMAT, FOLD_RECEIPT_VERSION, type FoldReceipt } from './fold-receipt.ts';
export type {
  BandReceipt,
  IdentifierReceipt,
  LineReceipt,
  ToolCallReceipt,
  ToolCallShown,
} from '../fold/band-receipt.ts';
