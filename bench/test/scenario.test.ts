import { describe, expect, it } from 'vitest';
import { renderMessage } from '../../src/tokens/index.ts';
import { callPositions, transcriptFor } from '../../test/helpers/workloads/dialect-transcript.ts';
import { OUTAGE_SCRIPT } from '../../test/helpers/workloads/outage-script.ts';
import { replayScenario } from '../scenario/replay-scenario.ts';
import { rawStrategy } from '../../src/baselines/raw.ts';
import { truncateStrategy } from '../../src/baselines/truncate.ts';

const DIALECTS = ['openai', 'anthropic', 'gemini'] as const;

describe('outage scenario script', () => {
  it('has 16 calls and 16 distinct facts', () => {
    expect(OUTAGE_SCRIPT.steps).toHaveLength(16);
    expect(new Set(OUTAGE_SCRIPT.facts.map((fact) => fact.value)).size).toBe(16);
    expect(OUTAGE_SCRIPT.steps.slice(0, 15).every((step) => step.toolCall && step.toolResult)).toBe(true);
  });

  it('shows each fact first in its planted result and uses it at its point of need, not in between', () => {
    const textOf = (step: number) => {
      const { operator, assistantText, toolCall, toolResult } = OUTAGE_SCRIPT.steps[step - 1];
      return {
        before: operator ?? '',
        call: `${assistantText}\n${JSON.stringify(toolCall?.arguments ?? {})}`,
        result: toolResult ?? '',
      };
    };
    for (const fact of OUTAGE_SCRIPT.facts) {
      expect(fact.plantedAtStep).toBeLessThan(fact.neededAtStep);
      expect(OUTAGE_SCRIPT.system + OUTAGE_SCRIPT.task).not.toContain(fact.value);
      for (let step = 1; step < fact.neededAtStep; step++) {
        const text = textOf(step);
        expect(text.before + text.call, `${fact.value} leaks before step ${fact.neededAtStep}`).not.toContain(
          fact.value,
        );
        if (step === fact.plantedAtStep) expect(text.result).toContain(fact.value);
        else expect(text.result, `${fact.value} in result ${step}`).not.toContain(fact.value);
      }
      expect(textOf(fact.neededAtStep).call).toContain(fact.value);
    }
  });

  it.each(DIALECTS)(
    'emits a %s transcript whose tool calls all have results, with the same text in every dialect',
    (dialect) => {
      const transcript = transcriptFor(OUTAGE_SCRIPT, dialect);
      expect(callPositions(transcript.messages)).toHaveLength(16);
      const rendered = transcript.messages.map(renderMessage).join('');
      for (const fact of OUTAGE_SCRIPT.facts) expect(rendered).toContain(fact.value);
      if (dialect === 'openai') {
        const calls = transcript.messages
          .flatMap((message) => (message.tool_calls ?? []) as Array<{ id: string }>)
          .map((call) => call.id);
        const results = transcript.messages
          .filter((message) => message.role === 'tool')
          .map((message) => message.tool_call_id);
        expect(results).toEqual(calls);
      }
      if (dialect === 'anthropic') {
        transcript.messages.forEach((message, index) => {
          const uses = Array.isArray(message.content)
            ? (message.content as Array<Record<string, unknown>>).filter((block) => block.type === 'tool_use')
            : [];
          for (const use of uses) {
            const next = transcript.messages[index + 1].content as Array<Record<string, unknown>>;
            expect(next[0]).toMatchObject({ type: 'tool_result', tool_use_id: use.id });
          }
        });
      }
    },
  );
});

describe('scenario replay', () => {
  it('keeps every fact with raw history and bills the cache honestly', () => {
    const run = replayScenario(OUTAGE_SCRIPT, rawStrategy, 'openai', 16_000, 'claude-sonnet-4-5');
    expect(run.factsAtNeed).toBe(16);
    expect(run.factsInFinalPrompt).toBe(16);
    expect(run.finalVersusRaw).toBe(1);
    expect(run.calls).toBe(16);
    expect(run.cacheReadCost + run.cacheWriteCost + run.freshCost).toBeCloseTo(run.inputCost, 12);
    // The first call is under the 1,024-token minimum: nothing is read or written.
    expect(run.freshCost).toBeGreaterThan(0);
  });

  it('is deterministic apart from timing', () => {
    const strip = ({ prepareMilliseconds: _ignored, ...rest }: ReturnType<typeof replayScenario>) => rest;
    expect(strip(replayScenario(OUTAGE_SCRIPT, truncateStrategy, 'gemini', 8_000, 'gemini-2.5-flash'))).toEqual(
      strip(replayScenario(OUTAGE_SCRIPT, truncateStrategy, 'gemini', 8_000, 'gemini-2.5-flash')),
    );
  });

  it('loses cache reads on the call after the long operator pause', () => {
    const warm = replayScenario(
      { ...OUTAGE_SCRIPT, steps: OUTAGE_SCRIPT.steps.map(({ pauseSeconds: _pause, ...step }) => step) },
      rawStrategy,
      'openai',
      16_000,
      'claude-sonnet-4-5',
    );
    const paused = replayScenario(OUTAGE_SCRIPT, rawStrategy, 'openai', 16_000, 'claude-sonnet-4-5');
    expect(paused.cacheReadTokens).toBeLessThan(warm.cacheReadTokens);
  });
});
