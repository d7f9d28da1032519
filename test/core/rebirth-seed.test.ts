import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../helpers/fixtures.ts';
import { buildRawRebirthSeedFromMessages, REBIRTH_SEED_DIRECTIVE } from '../../src/rebirth/index.ts';
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import { startTaskRail, unwrapTaskRail } from '../../src/task-rail/index.ts';

const call = (id: string, command: string, text: string | null = null): ProviderMessage => ({
  role: 'assistant',
  content: text,
  tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } }],
});
const result = (id: string, content: string): ProviderMessage => ({ role: 'tool', tool_call_id: id, content });

const history: ProviderMessage[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Fix the failing checkout test in services/checkout/api.py.' },
  call('c1', 'pytest tests/test_checkout.py -x', 'Running the failing test first.'),
  result('c1', 'FAILED tests/test_checkout.py::test_total - AssertionError: 41 != 42'),
  call(
    'c2',
    "sed -i 's/round(total)/round(total, 2)/' services/checkout/api.py",
    'The total is rounded to an integer; fixing the rounding.',
  ),
  result('c2', ''),
  { role: 'assistant', content: 'Patched the rounding in services/checkout/api.py; the test should pass now.' },
  { role: 'user', content: 'Great, now also run the whole suite and report.' },
];

describe('raw rebirth seed', () => {
  it('has its sections, the live request exactly once, and the edit delta', () => {
    const seed = buildRawRebirthSeedFromMessages(history, { budgetTokens: 2_000, countTokens });
    expect(seed.text.startsWith(REBIRTH_SEED_DIRECTIVE)).toBe(true);
    expect(seed.mergedLiveTurn).toBe(true);
    expect(seed.text.split('Great, now also run the whole suite and report.').length - 1).toBe(1);
    expect(seed.text).toContain('Patched the rounding');
    expect(seed.text).toMatch(/Active edit delta[^\n]*\n▸ bash: sed -i/);
    expect(seed.text).toContain('services/checkout/api.py');
    expect(countTokens(seed.text)).toBeLessThanOrEqual(2_000);
  });

  it('renders a task rail when given one', () => {
    const rail = unwrapTaskRail(
      startTaskRail({
        id: 'rail-1',
        title: 'Checkout fix',
        steps: [{ title: 'Reproduce' }, { title: 'Patch rounding' }],
        now: 0,
      }),
    );
    const seed = buildRawRebirthSeedFromMessages(history, { budgetTokens: 2_000, taskRail: rail });
    expect(seed.text).toContain('── Task rail ──');
    expect(seed.text).toContain('Patch rounding');
  });

  it('is deterministic', () => {
    expect(buildRawRebirthSeedFromMessages(history, { budgetTokens: 1_500 }).text).toBe(
      buildRawRebirthSeedFromMessages(history, { budgetTokens: 1_500 }).text,
    );
  });

  it('a hard epoch on a real 45,000-token session fits well under an 8,000-token ceiling, once, then appends hot', () => {
    const { messages } = readFixture<ProviderMessage>('msa-ds-chat-test-django__django-12589');
    let clock = 0;
    const session = new FoldSession({ pressureCeiling: 8_000, countTokens, now: () => clock });
    const cut = messages.length - 1;
    const epoch = session.prepare(messages.slice(0, cut), { hardEpoch: true });
    expect(epoch.stats.epochReason).toBe('hard-epoch');
    const tokens = (view: readonly ProviderMessage[]) =>
      view.reduce((sum, message) => sum + countTokens(`<${message.role}>\n${String(message.content ?? '')}\n`), 0);
    expect(tokens(epoch.messages)).toBeLessThanOrEqual(0.6 * 8_000);
    clock += 20_000;
    const next = session.prepare(messages.slice(0, cut + 1));
    expect(next.cacheHot).toBe(true);
    expect(JSON.stringify(next.messages.slice(0, epoch.messages.length))).toBe(JSON.stringify(epoch.messages));
  });
});
