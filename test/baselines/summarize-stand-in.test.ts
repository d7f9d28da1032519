import { describe, expect, it } from 'vitest';
import { countTokens } from '../../src/tokens/index.ts';
import { callPositions, transcriptFor } from '../helpers/workloads/dialect-transcript.ts';
import { OUTAGE_SCRIPT } from '../helpers/workloads/outage-script.ts';
import { summarizeStandInStrategy } from '../../src/baselines/summarize-stand-in.ts';
import type { BaselineMessage } from '../../src/baselines/types.ts';

describe('summarization stand-in', () => {
  it('reports one extra model call per summary, sent the previous prompt as its prefix', () => {
    const { messages } = transcriptFor(OUTAGE_SCRIPT, 'openai');
    const strategy = summarizeStandInStrategy.create({ ceiling: 8_000, countTokens, now: () => 0 });
    let previous: readonly BaselineMessage[] = [];
    let summaries = 0;
    for (const position of callPositions(messages)) {
      const prepared = strategy.prepare(messages.slice(0, position), {});
      for (const extra of prepared.extraCalls ?? []) {
        summaries++;
        expect(extra.outputTokens).toBeGreaterThan(0);
        // It opens with the last prompt (then any messages that arrived since): a warm cache serves that part.
        const request = extra.messages.slice(0, -1);
        const common = Math.min(previous.length, request.length);
        expect(
          request
            .slice(0, common)
            .every((message, index) => JSON.stringify(message) === JSON.stringify(previous[index])),
        ).toBe(true);
      }
      const summary = prepared.messages.find(
        (message) => typeof message.content === 'string' && message.content.startsWith('[Summary of'),
      );
      if (summaries > 0) expect(summary).toBeDefined();
      previous = prepared.messages;
    }
    expect(summaries).toBeGreaterThan(0);
  });
});
