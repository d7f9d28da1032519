/**
 * Issue 29: a well-formed tool argument nested deeper than MAX_VALUE_DEPTH is refused, with a
 * FoldInputError naming the message and the field, even where that message would be folded
 * away; the decision and its reason are at MAX_VALUE_DEPTH (src/messages/value-guard.ts). The
 * session is left as it was, so a host (the worker answers 400) can go on with a good history.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FoldInputError, FoldSession, type ProviderMessage } from '../../src/index.ts';
import { MAX_VALUE_DEPTH } from '../../src/fold/index.ts';
import { toDialect } from '../helpers/dialects.ts';
import { marathonScript } from '../helpers/scripts.ts';
import { thrownBy } from '../helpers/thrown.ts';

const LEVELS = 1_000;
const deepArguments = `${'{"a":'.repeat(LEVELS)}"leaf"${'}'.repeat(LEVELS)}`;

/** The history with the first tool call's arguments replaced by well-formed JSON `LEVELS` deep; its index too. */
function withDeepArguments(history: readonly ProviderMessage[]): { edited: ProviderMessage[]; at: number } {
  const at = history.findIndex((message) => Array.isArray(message.tool_calls));
  const message = history[at] as { tool_calls: Array<{ function: Record<string, unknown> }> };
  const edited = [...history];
  edited[at] = {
    ...message,
    tool_calls: [
      { ...message.tool_calls[0], function: { ...message.tool_calls[0].function, arguments: deepArguments } },
      ...message.tool_calls.slice(1),
    ],
  };
  return { edited, at };
}

describe(`values nested deeper than MAX_VALUE_DEPTH (${MAX_VALUE_DEPTH}) are refused, even in a message that folds away`, () => {
  const history = toDialect(marathonScript(40, 3), 'openai');
  const options = { pressureCeiling: 4_000, countTokens, now: () => 0 };

  it('a first call: FoldInputError naming the message and the field', () => {
    const { edited, at } = withDeepArguments(history);
    const error = thrownBy(() => new FoldSession(options).prepare(edited));
    expect(error).toBeInstanceOf(FoldInputError);
    expect((error as FoldInputError).messageIndex).toBe(at);
    expect(error.message).toMatch(
      new RegExp(
        `^message ${at}: tool_calls\\[0\\]\\.function\\.arguments.* nested more than ${MAX_VALUE_DEPTH} levels deep`,
      ),
    );
  });

  it('a call after that message was folded: refused the same way, and the session goes on as if it never came', () => {
    const session = new FoldSession(options);
    const twin = new FoldSession(options);
    const first = session.prepare(history);
    twin.prepare(history);
    expect(first.stats.bands).toBeGreaterThan(0);
    const { edited, at } = withDeepArguments(history);
    expect(at).toBeLessThan(first.foldedRange![1]);
    const error = thrownBy(() => session.prepare(edited));
    expect(error).toBeInstanceOf(FoldInputError);
    expect((error as FoldInputError).messageIndex).toBe(at);
    const next = [...history, { role: 'user', content: 'go on' }];
    expect(JSON.stringify(session.prepare(next))).toBe(JSON.stringify(twin.prepare(next)));
  });
});
