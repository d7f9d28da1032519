/**
 * Found by the fuzz suite (test/fuzz): when a host's history shrank after recall cards had been
 * pinned in the raw tail, the session kept cards (and clips) pointing past the history's end, and
 * its own snapshot was then refused by the saved-state checks (FoldStateError, cards[0].afterIndex).
 * A shrink now drops what points past the end; the snapshot restores and resumes.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import { toDialect } from '../helpers/dialects.ts';
import { preparePoints } from '../helpers/drive.ts';
import { readFixtureSessions } from '../fuzz/fixture-script.ts';

describe('a history that shrinks after recall cards were pinned', () => {
  it('drops cards past the end, and its snapshot restores and resumes byte for byte', () => {
    const sessions = readFixtureSessions();
    let checked = 0;
    for (const fixture of sessions) {
      const history = toDialect(fixture.script, 'openai');
      const session = new FoldSession({ pressureCeiling: 4_000, countTokens, now: () => 0, recall: true });
      for (const point of preparePoints(history)) {
        const outcome = session.prepare(history.slice(0, point));
        if (!outcome.stats.recallCardsResident || point < 3) continue;
        // the host drops its newest two messages (an undo, a retried turn)
        const shorter: ProviderMessage[] = history.slice(0, point - 2);
        const after = session.prepare(shorter);
        const restored = new FoldSession({
          pressureCeiling: 4_000,
          countTokens,
          now: () => 0,
          recall: true,
          restoredState: session.snapshot(),
        });
        const next = history.slice(0, point - 1);
        expect(JSON.stringify(restored.prepare(next)), fixture.id).toBe(JSON.stringify(session.prepare(next)));
        expect(after.stats.recallCardsResident).toBeLessThanOrEqual(outcome.stats.recallCardsResident);
        checked++;
        break;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
