/**
 * `warpfold/gateway`: the fold gateway's core, free of any runtime. `createGateway(options)`
 * answers provider-shaped requests (Anthropic Messages, OpenAI Responses and Chat Completions,
 * Gemini generateContent): it folds the history through each session's `FoldSession`, forwards
 * the request changing only folded messages, breakpoints and a missing cache key, and streams the
 * answer back. A host brings sockets, storage and fetch: `warpfold proxy` on Node, the worker.
 */
export {
  createGateway,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_WARM_SESSIONS,
  DEFAULT_UPSTREAMS,
  type Gateway,
  type GatewayOptions,
} from './create-gateway.ts';
export { memoryLedger, type GatewayLedger, type LedgerLine } from './ledger.ts';
export { routeRequest, upstreamUrl, type ApiKind, type Route, type UpstreamName } from './route-request.ts';
export { sessionKeyOf, type SessionKey, type SessionKeySource } from './session-key.ts';
export {
  createSessionFolder,
  FOLD_HEADERS,
  foldHeaders,
  type CurrentView,
  type FolderCall,
  type FolderDecision,
  type SessionFolder,
  type SessionFolderOptions,
  type SessionHistory,
} from './session-folder.ts';
export { sessionsResponse, type SessionSummary } from './sessions-endpoint.ts';
export type { SavedGatewaySession } from './session-pool.ts';
export type { ProviderUsage } from './usage-tap.ts';
export {
  type CallMarks,
  EPOCH_HEADER,
  SESSION_HEADER,
  VERDICT_HEADER,
  verdictHeader,
  type Verdict,
} from './verdict.ts';
