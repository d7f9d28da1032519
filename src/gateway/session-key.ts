import { isRecord } from '../text/is-record.ts';

/** Where a session's key came from. */
export type SessionKeySource =
  | 'x-warpfold-session'
  | 'claude-code'
  | 'codex'
  | 'pi'
  | 'prompt_cache_key'
  | 'content-prefix';

export interface SessionKey {
  /** What the client sent to name its session; absent when the session is keyed by its content. */
  readonly key?: string;
  readonly source: SessionKeySource;
}

const CLAUDE_SESSION_IN_TEXT = /session_([0-9a-fA-F-]{8,})/;

/** Claude Code's `metadata.user_id`: a JSON string holding `session_id`, or the older `…_session_<uuid>` text. */
function claudeCodeSession(metadata: unknown): string | undefined {
  if (!isRecord(metadata) || typeof metadata.user_id !== 'string') return undefined;
  const text = metadata.user_id;
  if (text.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isRecord(parsed) && typeof parsed.session_id === 'string' && parsed.session_id !== '')
        return parsed.session_id;
    } catch {
      // not JSON after all: read it as text
    }
  }
  return CLAUDE_SESSION_IN_TEXT.exec(text)?.[1];
}

/**
 * Names the session from what the client sends: an explicit `x-warpfold-session`, Claude Code's
 * session id (`metadata.user_id` or `x-claude-code-session-id`), Codex's `session-id`, pi's
 * `session_id`, a `prompt_cache_key`; otherwise the session is found by its content.
 */
export function sessionKeyOf(headers: Headers, body: Record<string, unknown>): SessionKey {
  const explicit = headers.get('x-warpfold-session');
  if (explicit) return { key: explicit, source: 'x-warpfold-session' };
  const claude = claudeCodeSession(body.metadata) ?? headers.get('x-claude-code-session-id');
  if (claude) return { key: claude, source: 'claude-code' };
  const codex = headers.get('session-id');
  if (codex) return { key: codex, source: 'codex' };
  const pi = headers.get('session_id');
  if (pi) return { key: pi, source: 'pi' };
  if (typeof body.prompt_cache_key === 'string' && body.prompt_cache_key !== '')
    return { key: body.prompt_cache_key, source: 'prompt_cache_key' };
  return { source: 'content-prefix' };
}
