/**
 * Minimal reproductions of engine bugs the property suite found, each asserting what DESIGN.md
 * promises. All are fixed; each test now guards its fix.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { bandRequest } from '../../src/fold/band-request.ts';
import { buildBand } from '../../src/fold/build-band.ts';
import { DEFAULT_FOLD_CONFIG, FoldSession, type ProviderMessage } from '../../src/index.ts';
import { Transcript } from '../../src/messages/index.ts';
import { buildRawRebirthSeedFromMessages } from '../../src/rebirth/index.ts';
import { foldBlocks, skeletonProblems, viewTokens } from '../helpers/view-checks.ts';

/** ~20,000 o200k tokens of log: far bigger than a 2,000-token ceiling. */
const HUGE_LOG = Array.from({ length: 2_000 }, (_, n) => `line ${n} INFO request took ${n}ms`).join('\n');

const call = (id: string, name: string, args: object, content: string | null = null): ProviderMessage => ({
  role: 'assistant',
  content,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});
const result = (id: string, content: string): ProviderMessage => ({ role: 'tool', tool_call_id: id, content });

describe('engine bugs found by the property suite', () => {
  // Fixed. src/session/fold-session.ts `outcome()` was `messages = sealed ? [...prefix, ...tail] : [...history]`.
  // When clipTail() committed a clip but no band (nothing before the live step could be folded)
  // and there was no seed, hasSealedPrefix() was false, so the clip was dropped and the raw
  // history (~20,000 tokens) went out under a 2,000-token ceiling, stats.viewTokens reporting the
  // raw size while stats.clippedMessages said 1. Later calls reused that state and stayed over the
  // ceiling; with telemetry the inflated measurement drove calibration towards its cap of 4, which
  // then starved the next rebirth seed.
  it('A: a huge tool result before anything can be folded is clipped under the ceiling', () => {
    const history = [
      { role: 'user', content: 'Read the log.' },
      call('call_1', 'bash', { command: 'cat app.log' }),
      result('call_1', HUGE_LOG),
    ];
    const outcome = new FoldSession({ pressureCeiling: 2_000, countTokens, now: () => 0 }).prepare(history);
    expect(outcome.stats.clippedMessages).toBe(1);
    expect(viewTokens(outcome.messages, countTokens)).toBeLessThanOrEqual(2_000);
  });

  // Fixed. src/session/clip-tail.ts passed `pinned: -1` to buildBand, so when a huge result forced
  // the clip path, the live instruction folded into the band competed on value and was dropped;
  // DESIGN.md §1.5: "the operator's latest instruction is never folded away".
  it('B: the clip path keeps the latest instruction in the view', () => {
    const steps: ProviderMessage[] = [];
    for (let i = 0; i < 12; i++) {
      steps.push(
        call(
          `c${i}`,
          'bash',
          { command: `pytest tests/test_mod_${i}.py -x` },
          `Checking /srv/app/mod_${i}.py at commit 9f${i}a7c3e1d.`,
        ),
      );
      steps.push(
        result(
          `c${i}`,
          `FAILED tests/test_mod_${i}.py::test_case - AssertionError: expected 200 got 500 at /srv/app/mod_${i}.py:${i * 7}\nError: E${1000 + i} in handler_${i}`,
        ),
      );
    }
    const history = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Set up the repo.' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'please make the checkout tests green again' },
      ...steps,
      call('big', 'bash', { command: 'cat logs/app.log' }),
      result('big', HUGE_LOG),
    ];
    const outcome = new FoldSession({ pressureCeiling: 2_000, countTokens, now: () => 0 }).prepare(history);
    expect(outcome.stats.clippedMessages).toBe(1);
    expect(JSON.stringify(outcome.messages)).toContain('please make the checkout tests green again');
  });

  const smallFoldHistory = () => [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Why does the service crash?' },
    call('call_1', 'read_file', { path: 'src/app.py' }),
    result('call_1', 'import os\nprint(os.environ["PORT"])'),
    call('call_2', 'bash', { command: 'cat logs/app.log' }),
    result('call_2', HUGE_LOG),
  ];

  // Fixed. src/fold/build-band.ts: when no attempt fit `budgetTokens` (a budget below the intro:
  // clipTail gives 0.45 × the raw tokens, planFold gives bandRatio × raw or the merge `room`),
  // the fallback `best = { text: intro }` dropped every line, mandatory ones included: skeleton
  // lines, the omitted-calls count and the pinned instruction (read_file vanished from the view).
  it('C: a folded tool call keeps a skeleton line or an omitted-calls count, or stays raw (session)', () => {
    const history = smallFoldHistory();
    const outcome = new FoldSession({ pressureCeiling: 2_000, countTokens, now: () => 0 }).prepare(history);
    const blocks = foldBlocks(outcome.messages);
    expect(blocks.flatMap((block) => skeletonProblems(block, history, 'openai'))).toEqual([]);
    const raw = outcome.messages.some((message) => JSON.stringify(message).includes('"call_1"'));
    const folded = blocks.some((block) => /^▸ (read_file|\d+ tool calls? not shown)/m.test(block.text));
    expect(raw || folded, 'read_file is neither raw in the view nor accounted in a fold').toBe(true);
  });

  it('C: buildBand keeps its mandatory lines (pinned instruction, call accounting) under a tight budget', () => {
    const history = [
      { role: 'user', content: 'Rename the payments module to billing.' },
      call('call_1', 'bash', { command: 'grep -rn payments src' }),
      result('call_1', 'src/payments/__init__.py:1: from .api import charge'),
    ];
    const transcript = new Transcript(countTokens);
    transcript.sync(history);
    const band = buildBand(
      bandRequest({
        transcript,
        config: DEFAULT_FOLD_CONFIG,
        countTokens,
        start: 0,
        end: 3,
        budgetTokens: 30,
        pinned: 0,
        withPreamble: false,
      }),
    );
    expect(band.text).toContain('Rename the payments module to billing.');
    expect(band.text).toMatch(/^▸ (bash|1 tool calls? not shown)/m);
  });

  // Fixed. src/session/clip-tail.ts built its band without planFold's guard
  // (`built.tokens + ackTokens < rawTokens`); DESIGN.md §4: "a fold is never larger than what it
  // replaces". Here 24 raw tokens became a ~98-token band (the preamble alone) plus the ack.
  it('D: the clip path never emits a fold larger than what it replaces, and still fits', () => {
    const outcome = new FoldSession({ pressureCeiling: 2_000, countTokens, now: () => 0 }).prepare(smallFoldHistory());
    for (const block of foldBlocks(outcome.messages))
      expect(viewTokens([outcome.messages[block.viewIndex]], countTokens)).toBeLessThan(block.rawTokens);
    expect(outcome.stats.clippedMessages).toBe(1);
    expect(viewTokens(outcome.messages, countTokens)).toBeLessThanOrEqual(2_000);
  });

  // Fixed. src/rebirth/raw-rebirth-seed.ts `clipText`: a single line over its share was not cut but
  // dropped whole: fitLines kept no line of it ("(1 more lines omitted)") and the tail pass got
  // nothing. A one-paragraph instruction (~80 tokens) over a 500-token seed (ceiling ≈ 1,000, or
  // a calibrated limit) left "Current instruction (in progress):" empty.
  it('E: the rebirth seed keeps the start of a long one-line instruction', () => {
    const instruction =
      'Please migrate the billing service from the legacy cron scheduler to the new queue workers, keeping the retry semantics identical, making sure invoices generated before the cutover on 2024-05-01 are not re-sent, updating the runbook in docs/billing/runbook.md and adding an integration test that exercises the dead-letter path end to end with the sandbox payment provider.';
    const history = [
      { role: 'user', content: instruction },
      call('c1', 'bash', { command: 'ls src/billing' }, 'Looking at the scheduler first.'),
      result('c1', 'cron.py\nqueue.py\nworkers.py'),
    ];
    const seed = buildRawRebirthSeedFromMessages(history, { budgetTokens: 500 });
    const section = seed.text.split('Current instruction (in progress):\n')[1]?.split('\n\n')[0] ?? '';
    expect(section).toContain('Please migrate the billing service');
  });

  // Fixed. src/messages/dialects/detect-dialect.ts guesses 'openai' for a history whose messages are all
  // text blocks (Anthropic `content: [{type:'text'}]` reads like OpenAI content parts). When the
  // first tool_use appears, Transcript.sync() sees the dialect change and reports firstChange = 0,
  // so evaluateFoldFreeze() rebuilds with reason 'boundary-changed' although the history only grew
  // (the hard-epoch seed is thrown away and the raw history returned). A session restored from a
  // snapshot taken before the flip reads the whole history as Anthropic, verifies the fingerprint
  // and reuses: it answers cacheHot with the seed rewritten as Anthropic blocks, bytes the original
  // session never sent. DESIGN.md §1.2 / §3: same input → same output; state restores exactly.
  const textBlock = (role: string, text: string) => ({ role, content: [{ type: 'text', text }] });
  const ambiguousThenAnthropic = (): ProviderMessage[] => [
    textBlock('user', 'Summarize the deployment plan.'),
    textBlock('assistant', 'The plan has three stages: build, canary, rollout.'),
    textBlock('user', 'Now check the canary logs.'),
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'kubectl logs canary' } }],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'canary healthy' }] },
  ];

  it('F: appending the first tool_use to a text-block history is not a boundary change', () => {
    const history = ambiguousThenAnthropic();
    let clock = 0;
    const session = new FoldSession({ pressureCeiling: 4_000, now: () => clock });
    session.prepare(history.slice(0, 3), { hardEpoch: true });
    clock += 10_000;
    const next = session.prepare(history);
    expect(next.stats.epochReason).not.toBe('boundary-changed');
  });

  it("F: a session restored before the dialect becomes clear gives the original's next outcome", () => {
    const history = ambiguousThenAnthropic();
    let clock = 0;
    const session = new FoldSession({ pressureCeiling: 4_000, now: () => clock });
    session.prepare(history.slice(0, 3), { hardEpoch: true });
    const restored = new FoldSession({ pressureCeiling: 4_000, now: () => clock, restoredState: session.snapshot() });
    clock += 10_000;
    expect(JSON.stringify(restored.prepare(history))).toBe(JSON.stringify(session.prepare(history)));
  });

  // Fixed. src/session/fold-session.ts `outcome()`: stats.viewChars is prefixChars plus the
  // raw chars of the tail, so a clipped tail message counts at full length: for bug A's history
  // the view is ~5,700 characters of JSON but viewChars equals rawChars (67,837).
  it('G: stats.viewChars counts a clipped message at its clipped size', () => {
    const history = [
      { role: 'user', content: 'Read the log.' },
      call('call_1', 'bash', { command: 'cat app.log' }),
      result('call_1', HUGE_LOG),
    ];
    const outcome = new FoldSession({ pressureCeiling: 2_000, countTokens, now: () => 0 }).prepare(history);
    expect(outcome.stats.clippedMessages).toBe(1);
    expect(outcome.stats.viewChars).toBeLessThan(outcome.stats.rawChars / 2);
  });
});
