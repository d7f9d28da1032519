/**
 * What `warpfold inspect --proxy` rests on: the inspector's own replay (demo/src/fold/replay.ts)
 * of the history the gateway serves, at the engine ceiling it serves, shows every view the
 * gateway forwarded, call by call, the latest (not answered yet) included. The engine is deterministic; the provider's measured input the
 * gateway feeds back does not change these views.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../demo/src/fold/protocol.ts';
import { replayHistory } from '../../demo/src/fold/replay.ts';
import { createGateway, memoryLedger } from '../../src/gateway/index.ts';
import type { ProviderMessage } from '../../src/index.ts';
import { createMemoryStore } from '../../src/storage/memory.ts';
import { countTokens } from '../../src/tokens/count-tokens.ts';
import { CLAUDE_HEADERS, claudeCodeBody } from '../helpers/agent-requests.ts';
import { ScriptedUpstream } from '../helpers/scripted-upstream.ts';

const CALLS = 30;
/** 4–9 KB tool outputs: the session passes the ceiling after about ten calls. */
const SCALE = 0.3;

/** Breakpoints are the gateway's to place (and the client's own may be dropped past four): not part of the view. */
function withoutCacheMarks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheMarks);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'cache_control')
      .map(([key, inner]) => [key, withoutCacheMarks(inner)]),
  );
}

describe('the inspector replay of a served history', () => {
  it('shows the view the gateway forwarded at every call it replays', async () => {
    const upstream = new ScriptedUpstream();
    let clock = 1_700_000_000_000;
    const gateway = createGateway({
      storage: createMemoryStore(),
      fetch: upstream.fetch,
      ceiling: 40_000,
      ledger: memoryLedger(),
      countTokens,
      now: () => (clock += 1_000),
    });
    const forwarded: unknown[] = [];
    const verdicts: Array<string | null> = [];
    for (let call = 1; call <= CALLS; call++) {
      const response = await gateway.handle(
        new Request('http://127.0.0.1:9/v1/messages', {
          method: 'POST',
          headers: CLAUDE_HEADERS,
          body: JSON.stringify(claudeCodeBody(call, undefined, SCALE)),
        }),
      );
      await response.text();
      await gateway.idle();
      verdicts.push(response.headers.get('x-warpfold-verdict'));
      const sent = upstream.calls.at(-1)?.body as { messages: unknown } | undefined;
      forwarded.push(withoutCacheMarks(sent?.messages));
    }
    const list = await (await gateway.handle(new Request('http://127.0.0.1:9/warpfold/sessions'))).json();
    const id = list.sessions[0].session as string;
    const history = await (
      await gateway.handle(new Request(`http://127.0.0.1:9/warpfold/sessions/${encodeURIComponent(id)}/history`))
    ).json();

    const replay = await replayHistory(history.messages as ProviderMessage[], {
      ...DEFAULT_SETTINGS,
      ceiling: history.engineCeiling,
      priceModel: 'claude-sonnet-4-5',
      // as `warpfold inspect --proxy` opens it: the last call, not answered yet, is replayed too
      pendingCall: true,
    });
    expect(replay?.outcomes).toHaveLength(CALLS);
    const compared = replay?.outcomes.map((outcome, index) => ({
      call: index + 1,
      verdict: verdicts[index],
      same: JSON.stringify(withoutCacheMarks(outcome.messages)) === JSON.stringify(forwarded[index]),
    }));
    expect(compared?.filter((entry) => !entry.same)).toEqual([]);
    expect(compared?.filter((entry) => entry.verdict === 'folded').length).toBeGreaterThanOrEqual(15);
    expect(compared?.at(-1)).toEqual({ call: CALLS, verdict: 'folded', same: true });
    // without the pending call, the replay stops at the last answer
    const answered = await replayHistory(history.messages as ProviderMessage[], {
      ...DEFAULT_SETTINGS,
      ceiling: history.engineCeiling,
    });
    expect(answered?.outcomes).toHaveLength(CALLS - 1);
  }, 60_000);
});
