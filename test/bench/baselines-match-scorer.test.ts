import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../src/tokens/index.ts';
import { identifierContexts, identifiers, messageShingles } from '../../bench/metrics/identifiers.ts';
import { BASELINE_STRATEGIES } from '../../bench/strategies/registry.ts';
import type { BenchMessage } from '../../bench/strategies/types.ts';
import { CORPUS_PATH, corpusAvailable, loadScorerFunctions, scorerAvailable, type ScorerFunctions } from './scorer-reference.ts';

// Sessions with different shapes: a terminal transcript without a system prompt, a SWE-bench
// run, a reasoner with empty contents, and a customer-service run with JSON results.
const SESSIONS = ['claudecode-console-bookminder-day021-s2.json', 'msa-ds-chat-test-django__django-10914.json', 'msa-ds-reasoner-dev-sqlfluff__sqlfluff-2419.json', 'tau-airline-gpt-4o-task02-trial1.json'];

function scorerView(scorer: ScorerFunctions, name: string, state: Record<string, unknown>, history: BenchMessage[], ceiling: number): unknown[] {
  const plain = history as Array<Record<string, unknown>>;
  if (name === 'raw') return plain;
  if (name === 'truncate') return scorer.truncateView(plain, ceiling);
  if (name === 'mask') return scorer.maskView(plain, ceiling);
  if (name === 'clear') return scorer.clearView(plain, ceiling, state as { cleared: Set<number> });
  return scorer.sawtoothView(plain, ceiling, state as { fold: null; b: number; lines: boolean });
}

describe.skipIf(!scorerAvailable || !corpusAvailable)('baselines against the reference scorer', () => {
  const scorer = scorerAvailable ? loadScorerFunctions() : (null as unknown as ScorerFunctions);
  const names = ['raw', 'truncate', 'mask', 'clear', 'sawtooth', 'sawtooth-lines'];

  it.each(SESSIONS)('produce the same view on every call of %s', (file) => {
    const { messages } = JSON.parse(readFileSync(join(CORPUS_PATH, file), 'utf8')) as { messages: BenchMessage[] };
    for (const ceiling of [16_000, 8_000]) {
      for (const name of names) {
        const definition = BASELINE_STRATEGIES.find((strategy) => strategy.name === name)!;
        const ours = definition.create({ ceiling, countTokens, now: () => 0 });
        const state = { cleared: new Set<number>(), fold: null, b: 2, lines: name === 'sawtooth-lines' };
        messages.forEach((message, index) => {
          if (message.role !== 'assistant' || index === 0) return;
          const history = messages.slice(0, index);
          expect(JSON.stringify(ours.prepare(history, {}).messages), `${name} ${ceiling} call at ${index}`).toBe(JSON.stringify(scorerView(scorer, name, state, history, ceiling)));
        });
      }
    }
  });

  it.each(SESSIONS)('find the same identifiers, contexts and shingles in %s', (file) => {
    const { messages } = JSON.parse(readFileSync(join(CORPUS_PATH, file), 'utf8')) as { messages: BenchMessage[] };
    for (const message of messages) {
      expect([...identifiers(scorer.renderMessage(message))]).toEqual([...scorer.identifiers(scorer.renderMessage(message))]);
      expect(identifierContexts(message)).toEqual(scorer.contexts(message));
      expect([...messageShingles(message)]).toEqual([...scorer.messageShingles(message)]);
    }
  });
});
