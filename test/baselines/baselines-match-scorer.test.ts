// Our ports of the scorer's baselines produce its view on every call, and our reuse metrics read
// every message as it does. The scorer's outputs on the bundled sessions are recorded in
// test/fixtures/scorer-reference (see scorer-reference.ts).
import { describe, expect, it } from 'vitest';
import { countTokens, renderMessage } from '../../src/tokens/index.ts';
import { identifierContexts, identifiers, messageShingles } from '../../src/baselines/identifiers.ts';
import { BASELINE_STRATEGIES } from '../../src/baselines/index.ts';
import type { BaselineMessage } from '../../src/baselines/types.ts';
import { readFixture } from '../helpers/fixtures.ts';
import {
  BASELINES,
  callIndices,
  digest,
  PARITY_CEILINGS,
  readingDigests,
  readScorerReference,
  RECORD_COMMAND,
  VIEW_SESSIONS,
} from './scorer-reference.ts';

describe('baselines against the reference scorer', () => {
  const reference = readScorerReference();

  it.each(VIEW_SESSIONS)('produce the same view on every call of %s', (file) => {
    const messages = readFixture<BaselineMessage>(file).messages;
    const calls = callIndices(messages);
    for (const ceiling of PARITY_CEILINGS) {
      for (const name of BASELINES) {
        const recorded = reference.views[file][ceiling][name];
        expect(recorded, `${name} ${ceiling}: recorded calls`).toHaveLength(calls.length);
        const definition = BASELINE_STRATEGIES.find((strategy) => strategy.name === name)!;
        const ours = definition.create({ ceiling, countTokens, now: () => 0 });
        calls.forEach((index, call) => {
          expect(
            digest(ours.prepare(messages.slice(0, index), {}).messages),
            `${name} ${ceiling} call at ${index} (recorded by \`${RECORD_COMMAND}\`)`,
          ).toBe(recorded[call]);
        });
      }
    }
  });

  it.each(VIEW_SESSIONS)('find the same identifiers, contexts and shingles in %s', (file) => {
    const messages = readFixture<BaselineMessage>(file).messages;
    const recorded = reference.readings.sessions[file].reuse;
    expect(recorded).toHaveLength(messages.length);
    messages.forEach((message, index) => {
      const ours = readingDigests(message, {
        render: renderMessage,
        identifiers,
        contexts: identifierContexts,
        shingles: messageShingles,
      });
      expect(ours.reuse, `message ${index}`).toBe(recorded[index]);
    });
  });
});
