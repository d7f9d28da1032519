import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { FoldSession, type ProviderMessage } from '../../src/index.ts';

// A payload the agent read early on, with a line it will need again much later.
const PAYLOAD = [
  'def settle(invoice):',
  '    # settlement window is 72h for EU merchants',
  '    return ledger.post(invoice, window_hours=72)',
].join('\n');
const call = (id: string, name: string, args: object, text: string | null = null): ProviderMessage => ({
  role: 'assistant',
  content: text,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});
const result = (id: string, content: string): ProviderMessage => ({ role: 'tool', tool_call_id: id, content });
const filler = (n: number) =>
  Array.from(
    { length: 60 },
    (_, line) => `build step ${n}.${line}: compiled module_${n}_${line} in ${line + 3}ms`,
  ).join('\n');

function history(): ProviderMessage[] {
  const messages: ProviderMessage[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix settlement for EU merchants.' },
    call('read-1', 'read_file', { path: 'billing/settle.py' }, 'Reading the settlement code.'),
    result('read-1', PAYLOAD),
  ];
  for (let n = 0; n < 14; n++)
    messages.push(
      call(`b${n}`, 'bash', { command: `make build-${n}` }, `Building part ${n}.`),
      result(`b${n}`, filler(n)),
    );
  return messages;
}

/** Drives the session call by call, as a host does before each model call. */
function drive(session: FoldSession, messages: ProviderMessage[], clock: { now: number }) {
  let outcome = session.prepare(messages.slice(0, 2));
  for (let end = 3; end <= messages.length; end++) {
    if (messages[end - 1]?.role === 'assistant') continue;
    clock.now += 20_000;
    outcome = session.prepare(messages.slice(0, end));
  }
  return outcome;
}

const viewText = (messages: readonly ProviderMessage[]) =>
  messages.map((message) => String(message.content ?? '')).join('\n');

describe('recall through FoldSession', () => {
  it('pages a payload buried by a fold back in, verbatim, when its path is touched again', () => {
    const clock = { now: 0 };
    // 6,000: the live build output (about 1,100 tokens) is shown whole, and a card still finds room
    const session = new FoldSession({ pressureCeiling: 6_000, countTokens, now: () => clock.now, recall: true });
    const messages = history();
    const folded = drive(session, messages, clock);
    expect(folded.foldedRange?.[0]).toBeLessThanOrEqual(3);
    expect(viewText(folded.messages)).not.toContain(PAYLOAD);
    messages.push(
      call('read-2', 'read_file', { path: 'billing/settle.py' }, 'Back to the settlement code.'),
      result('read-2', 'file changed on disk; see diff'),
    );
    clock.now += 20_000;
    const recalled = session.prepare(messages);
    expect(recalled.stats.recallCardsAdded).toBeGreaterThan(0);
    expect(viewText(recalled.messages)).toContain(PAYLOAD);
    expect(recalled.cacheHot || recalled.stats.epochReason !== undefined).toBe(true);
    // the card stays where it was put while the prefix holds, then folds away at the next epoch
    messages.push({ role: 'assistant', content: 'The window is 72h.' }, { role: 'user', content: 'Good, continue.' });
    clock.now += 20_000;
    const next = session.prepare(messages);
    if (next.cacheHot)
      expect(JSON.stringify(next.messages.slice(0, recalled.messages.length))).toBe(JSON.stringify(recalled.messages));
  });

  it('pages a payload buried by a hard epoch back in when its path is touched again', () => {
    const clock = { now: 0 };
    const session = new FoldSession({ pressureCeiling: 8_000, countTokens, now: () => clock.now, recall: true });
    const messages = history().slice(0, 8);
    session.prepare(messages, { hardEpoch: true });
    messages.push(call('read-2', 'read_file', { path: 'billing/settle.py' }), result('read-2', 'unchanged'));
    clock.now += 20_000;
    const recalled = session.prepare(messages);
    expect(recalled.stats.recallCardsAdded).toBeGreaterThan(0);
    expect(viewText(recalled.messages)).toContain(PAYLOAD);
  });

  it('stays under the ceiling with cards in the view', () => {
    const clock = { now: 0 };
    const session = new FoldSession({ pressureCeiling: 4_000, countTokens, now: () => clock.now, recall: true });
    const messages = history();
    drive(session, messages, clock);
    messages.push(call('read-2', 'read_file', { path: 'billing/settle.py' }), result('read-2', 'x'));
    const outcome = session.prepare(messages);
    const tokens = outcome.messages.reduce(
      (sum, message) => sum + countTokens(`<${message.role}>\n${String(message.content ?? '')}\n`),
      0,
    );
    expect(tokens).toBeLessThanOrEqual(4_000);
  });
});

describe('rewrite recall (the default)', () => {
  const bash = (id: string, command: string, text: string | null = null) => call(id, 'bash', { command }, text);
  // a bash-only agent reads a file whole, greps it later, works on, then copies it aside to rewrite it
  function rewriteHistory(): ProviderMessage[] {
    const messages: ProviderMessage[] = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Fix settlement for EU merchants.' },
      bash('cat-1', 'cat billing/settle.py', 'Reading the settlement code.'),
      result('cat-1', PAYLOAD),
      bash('grep-1', 'grep -n window billing/settle.py'),
      result('grep-1', '3:    return ledger.post(invoice, window_hours=72)'),
    ];
    for (let n = 0; n < 14; n++)
      messages.push(bash(`b${n}`, `make build-${n}`, `Building part ${n}.`), result(`b${n}`, filler(n)));
    return messages;
  }
  const copyAside = (messages: ProviderMessage[], command: string) =>
    messages.push(bash('cp-1', command, 'Keeping the old file before I rewrite it.'), result('cp-1', ''));

  function afterCopy(command: string, recall?: boolean) {
    const clock = { now: 0 };
    const session = new FoldSession({
      pressureCeiling: 6_000,
      countTokens,
      now: () => clock.now,
      ...(recall === undefined ? {} : { recall }),
    });
    const messages = rewriteHistory();
    const folded = drive(session, messages, clock);
    expect(viewText(folded.messages)).not.toContain(PAYLOAD);
    copyAside(messages, command);
    clock.now += 20_000;
    return session.prepare(messages);
  }

  it('pages back the whole view of a file copied aside under a backup name, not a later grep of it', () => {
    const outcome = afterCopy('cp billing/settle.py billing/settle.py.backup');
    expect(outcome.stats.recallCardsAdded).toBe(1);
    const last = viewText(outcome.messages.slice(-1));
    expect(last).toContain(PAYLOAD);
    expect(last).toContain('cat billing/settle.py');
  });

  it('adds nothing for other commands, or with recall: false', () => {
    expect(afterCopy('cp billing/settle.py billing/other.py').stats.recallCardsAdded).toBe(0);
    expect(afterCopy('cat billing/settle.py | head -1').stats.recallCardsAdded).toBe(0);
    expect(afterCopy('cp billing/settle.py billing/settle.py.backup', false).stats.recallCardsAdded).toBe(0);
    expect(new FoldSession({ pressureCeiling: 4_000 }).recallEnabled).toBe(false);
  });
});
