import type {
  CurrentView,
  FolderCall,
  FolderDecision,
  GatewayLedger,
  SessionFolder,
  SessionHistory,
} from '../src/gateway/index.ts';
import { gatewaySessionObjectName, tenantObjectName } from './durable-object-names.ts';
import type { GatewaySessionSettings } from './gateway-session-object.ts';
import type { WorkerBindings } from './worker-bindings.ts';

/**
 * The gateway core's folder, hosted: each call goes to its session's Durable Object (one per
 * tenant and session key), which folds and keeps the state. Only plain data crosses: the body
 * text and the fold headers (`FolderCall`), never the provider's key, which stays in the Worker.
 */
export function durableObjectFolder(
  env: WorkerBindings,
  tenant: string,
  settings: GatewaySessionSettings,
): SessionFolder {
  const objectOf = (sessionId: string) => env.GATEWAY_SESSIONS.getByName(gatewaySessionObjectName(tenant, sessionId));
  return {
    async fold(call: FolderCall): Promise<FolderDecision> {
      // the parsed body stays here: the object parses the text itself
      const { body: _parsed, ...plain } = call;
      return (await objectOf(call.sessionId).fold(plain, settings)) as FolderDecision;
    },
    async measured(sessionId, inputTokens) {
      await objectOf(sessionId).measured(sessionId, inputTokens, settings);
    },
    async currentView(sessionId, text) {
      return (await objectOf(sessionId).currentView(sessionId, text, settings)) as CurrentView;
    },
    async history(sessionId) {
      return (await objectOf(sessionId).lastHistory(sessionId)) as SessionHistory;
    },
    // the warm sessions are the objects' own
    warmSessions: 0,
  };
}

/** The tenant's ledger, in its tenant object: `GET /warpfold/sessions` reads only the caller's tenant. */
export function tenantLedger(env: WorkerBindings, tenant: string): GatewayLedger {
  const object = () => env.TENANTS.getByName(tenantObjectName(tenant));
  return {
    async append(line) {
      await object().appendLedgerLine(line);
    },
    async lines(session) {
      return object().ledgerLines(session);
    },
  };
}
