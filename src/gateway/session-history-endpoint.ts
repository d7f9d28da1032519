import { gatewayJson } from './json-response.ts';
import type { GatewayLedger } from './ledger.ts';
import type { SessionFolder } from './session-folder.ts';

/**
 * `GET /warpfold/sessions/:id/history`: the raw history of the session's last call, in the
 * client's dialect, with the ceiling and model it was folded under. The gateway holds raw history
 * in memory only (its store keeps the engine's state, not the client's messages), so a session
 * that is not warm answers 404 and says why; one the ledger has never seen says that instead.
 */
export async function sessionHistoryResponse(
  folder: SessionFolder,
  ledger: GatewayLedger,
  id: string,
): Promise<Response> {
  const history = await folder.history(id);
  if (history.ok) {
    const { ok: _ok, ...figures } = history;
    return gatewayJson({ session: id, ...figures });
  }
  if ((await ledger.lines(id)).length === 0)
    return gatewayJson({ error: { type: 'unknown-session', message: `no session ${id}` } }, 404);
  return gatewayJson(
    {
      error: {
        type: 'not-warm',
        message: `session ${id} is not in memory: the gateway keeps a session's raw history only while the session is warm (held in memory after its calls, never stored); its next call brings it back`,
      },
    },
    404,
  );
}
