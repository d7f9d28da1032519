import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { FoldOptionsError } from '../../src/errors.ts';
import {
  buildFoldIndex,
  buildFoldRecallContext,
  createRecallState,
  DEFAULT_RECALL_CONFIG,
  extractRecallSignals,
  lookupPath,
  restoreRecallState,
  type RecallSignals,
} from '../../src/recall/index.ts';
import { estimateTokens } from '../../src/text/estimate-tokens.ts';
import { callIndexOf, DIALECTS, indexOf, readHistory, renderScript, type ScriptStep } from './dialects.ts';
import { LOADER_PAYLOAD, LOADER_SCRIPT } from './scenario.ts';

/** Folds turn 1 (everything after the system message up to the second user message). */
function foldedLoader(dialect: (typeof DIALECTS)[number]) {
  const messages = readHistory(renderScript(LOADER_SCRIPT, dialect));
  const secondTurn = indexOf(messages, 'Before fixing');
  const index = buildFoldIndex(messages, [[1, secondTurn]]);
  const editAt = callIndexOf(messages, './src//config/loader.ts');
  return { messages, index, secondTurn, editAt, readAt: callIndexOf(messages, '"src/config/loader.ts"') };
}

describe('fold recall round trip', () => {
  for (const dialect of DIALECTS) {
    it(`brings a folded payload back verbatim when its path is touched again (${dialect})`, () => {
      const { messages, index, editAt, readAt } = foldedLoader(dialect);
      const signals = extractRecallSignals(messages, editAt);
      expect(signals.paths[0]).toMatchObject({ value: 'src/config/loader.ts', source: 'edit-target' });
      const { cards } = buildFoldRecallContext(index, signals, createRecallState());
      expect(cards).toHaveLength(1);
      const [card] = cards;
      expect(card.trigger).toBe('path-target');
      expect(card.messageIndex).toBe(readAt);
      expect(card.text.startsWith(`[warpfold recall · src/config/loader.ts · from message ${readAt}]`)).toBe(true);
      expect(card.text).toContain(LOADER_PAYLOAD);
      expect(card.text).toContain('conclusion: The loader hardcodes PORT = 8080');
    });
  }

  it('recalls nothing while the payload is still in view (nothing folded)', () => {
    const messages = readHistory(renderScript(LOADER_SCRIPT, 'openai'));
    const index = buildFoldIndex(messages, []);
    const { cards } = buildFoldRecallContext(
      index,
      extractRecallSignals(messages, callIndexOf(messages, './src//config')),
      createRecallState(),
    );
    expect(index.entries).toHaveLength(0);
    expect(cards).toHaveLength(0);
  });

  it('recalls nothing when the newest activity touches unrelated files', () => {
    const { messages, index } = foldedLoader('openai');
    const docsAt = callIndexOf(messages, 'docs/config.md');
    const signals = extractRecallSignals(messages.slice(0, docsAt + 2), docsAt);
    expect(signals.paths.map((signal) => signal.value)).toEqual(['docs/config.md']);
    expect(buildFoldRecallContext(index, signals, createRecallState()).cards).toEqual([]);
  });

  it('finds a folded file under another spelling of its path, never a namesake in another folder', () => {
    const { index } = foldedLoader('anthropic');
    expect(lookupPath(index, '/home/dev/repo/src/config/loader.ts').targets.length).toBe(1);
    expect(lookupPath(index, 'src///config/./loader.ts').targets.length).toBe(1);
    expect(lookupPath(index, 'lib/config/loader.ts')).toEqual({ targets: [], mentions: [] });
    // the failing test run named the loader in its output: a weaker, mention-level posting
    expect(lookupPath(index, 'src/config/loader.ts').mentions.length).toBe(1);
    expect(lookupPath(index, 'test/config.test.ts').targets.length).toBe(1);
  });

  it('is deterministic', () => {
    const run = () => {
      const { messages, index, editAt } = foldedLoader('gemini');
      return buildFoldRecallContext(index, extractRecallSignals(messages, editAt), createRecallState(), {}, 5_000);
    };
    expect(JSON.stringify(run())).toBe(JSON.stringify(run()));
  });
});

describe('fold index', () => {
  it('points each folded call at its result, key argument and the conclusion after it', () => {
    const { index, readAt, messages } = foldedLoader('openai');
    const read = index.entries.find((entry) => entry.messageIndex === readAt);
    expect(read).toMatchObject({
      call: { name: 'read_file', keyArgument: 'src/config/loader.ts' },
      resultText: LOADER_PAYLOAD,
      targets: [{ path: 'src/config/loader.ts', how: 'read' }],
    });
    expect(read?.conclusion.startsWith('The loader hardcodes PORT = 8080')).toBe(true);
    const test = index.entries.find((entry) => entry.call.name === 'bash');
    expect(test?.conclusion).toBe('🏁 The failure is the hardcoded PORT in src/config/loader.ts line 6.');
    // the test file is the call's own target, so only the loader counts as a mention
    expect(test?.mentionedPaths).toEqual(['src/config/loader.ts']);
    // calls outside the folded ranges are not indexed
    expect(index.entries.every((entry) => entry.messageIndex < indexOf(messages, 'Before fixing'))).toBe(true);
  });

  it('indexes identifiers of results, so an exact token recalls its call', () => {
    const { messages, index } = foldedLoader('openai');
    expect(index.identifiers.get('7f3a9c2e1b4d')).toBeDefined();
    const asked: ScriptStep[] = [...LOADER_SCRIPT, { kind: 'user', text: 'Is the token 7f3a9c2e1b4d still valid?' }];
    const grown = readHistory(renderScript(asked, 'openai'));
    const { cards } = buildFoldRecallContext(index, extractRecallSignals(grown, messages.length), createRecallState());
    expect(cards).toHaveLength(1);
    expect(cards[0].trigger).toBe('identifier');
    expect(cards[0].text).toContain('[warpfold recall · 7f3a9c2e1b4d · from message');
    expect(cards[0].text).toContain('  // deploy token 7f3a9c2e1b4d, rotated 2024-06-01');
  });

  it('does not index recall cards a host pasted into a result', () => {
    const { messages, index, editAt } = foldedLoader('openai');
    const card = buildFoldRecallContext(index, extractRecallSignals(messages, editAt), createRecallState()).cards[0]
      .text;
    const script: ScriptStep[] = [
      { kind: 'user', text: 'go' },
      { kind: 'assistant', text: '', calls: [{ id: 'c1', name: 'bash', input: { command: 'ls docs' } }] },
      { kind: 'results', results: [{ id: 'c1', name: 'bash', text: `docs/config.md\n${card}\n` }] },
      { kind: 'assistant', text: 'ok' },
    ];
    const pasted = readHistory(renderScript(script, 'openai'));
    const reindexed = buildFoldIndex(pasted, [[0, pasted.length]]);
    expect(reindexed.entries[0].resultText).toBe('docs/config.md\n');
    expect(reindexed.identifiers.has('7f3a9c2e1b4d')).toBe(false);
  });
});

describe('residency', () => {
  it('stops a second card for the same path within the window, then lets it back', () => {
    const { messages, index, editAt } = foldedLoader('openai');
    const signals = extractRecallSignals(messages, editAt);
    const config = { residencyCalls: 3 };
    const first = buildFoldRecallContext(index, signals, createRecallState(), config);
    expect(first.cards).toHaveLength(1);
    let state = first.state;
    for (let call = 0; call < 3; call++) {
      const again = buildFoldRecallContext(index, signals, state, config);
      expect(again.cards).toEqual([]);
      expect(again.withheld).toEqual(['src/config/loader.ts']);
      state = again.state;
    }
    const later = buildFoldRecallContext(index, signals, state, config);
    expect(later.cards).toHaveLength(1);
    expect(later.cards[0].text).toBe(first.cards[0].text);
  });

  it('re-recalls on the very next call when residency is zero', () => {
    const { messages, index, editAt } = foldedLoader('openai');
    const signals = extractRecallSignals(messages, editAt);
    const first = buildFoldRecallContext(index, signals, createRecallState(), { residencyCalls: 0 });
    expect(buildFoldRecallContext(index, signals, first.state, { residencyCalls: 0 }).cards).toHaveLength(1);
  });

  it('keeps an entry quiet even when another key points at it', () => {
    const { messages, index, editAt } = foldedLoader('openai');
    const first = buildFoldRecallContext(index, extractRecallSignals(messages, editAt), createRecallState());
    const byToken: RecallSignals = {
      paths: [],
      identifiers: [{ value: '7f3a9c2e1b4d', source: 'user-text', messageIndex: 99 }],
      from: 0,
      to: 0,
    };
    expect(buildFoldRecallContext(index, byToken, first.state).cards).toEqual([]);
    expect(buildFoldRecallContext(index, byToken, createRecallState()).cards).toHaveLength(1);
  });

  it('expires on wall-clock time when residencyMs is set and now is passed', () => {
    const { messages, index, editAt } = foldedLoader('openai');
    const signals = extractRecallSignals(messages, editAt);
    const config = { residencyMs: 60_000 };
    const first = buildFoldRecallContext(index, signals, createRecallState(), config, 1_000);
    expect(buildFoldRecallContext(index, signals, first.state, config, 30_000).cards).toEqual([]);
    expect(buildFoldRecallContext(index, signals, first.state, config, 61_000).cards).toHaveLength(1);
  });

  it('round-trips its state through JSON', () => {
    const { messages, index, editAt } = foldedLoader('openai');
    const signals = extractRecallSignals(messages, editAt);
    const first = buildFoldRecallContext(index, signals, createRecallState(), {}, 7);
    const restored = restoreRecallState(JSON.stringify(first.state));
    expect(restored).toEqual(first.state);
    expect(buildFoldRecallContext(index, signals, restored).withheld).toEqual(['src/config/loader.ts']);
    expect(restoreRecallState('{not json')).toEqual(createRecallState());
    expect(restoreRecallState({ version: 2 })).toEqual(createRecallState());
  });
});

/** Many folded reads of big files, all touched again at once. */
function bigFold(files: number, linesPerFile: number) {
  const script: ScriptStep[] = [{ kind: 'user', text: 'Survey the modules.' }];
  for (let file = 0; file < files; file++) {
    const lines = Array.from(
      { length: linesPerFile },
      (_, line) => `export const value${line} = ${line * 7}; // module ${file}`,
    );
    lines[Math.floor(linesPerFile / 2)] = `export const MARKER_${file} = 'src/mod${file}.ts'; // the line that matters`;
    script.push({
      kind: 'assistant',
      text: `Reading module ${file}.`,
      calls: [{ id: `r${file}`, name: 'Read', input: { file_path: `src/mod${file}.ts` } }],
    });
    script.push({ kind: 'results', results: [{ id: `r${file}`, name: 'Read', text: lines.join('\n') }] });
  }
  script.push({ kind: 'assistant', text: 'Surveyed.' });
  script.push({ kind: 'user', text: 'Now edit them all.' });
  script.push({
    kind: 'assistant',
    text: '',
    calls: Array.from({ length: files }, (_, file) => ({
      id: `e${file}`,
      name: 'Edit',
      input: { file_path: `src/mod${file}.ts`, old_string: 'a', new_string: 'b' },
    })),
  });
  const messages = readHistory(renderScript(script, 'anthropic'));
  const editAt = messages.length - 1;
  return {
    messages,
    index: buildFoldIndex(messages, [[0, indexOf(messages, 'Now edit them all.')]]),
    signals: extractRecallSignals(messages, editAt),
  };
}

describe('budgets', () => {
  it('excerpts a large result around the matched path and marks what it left out', () => {
    const { index, signals } = bigFold(1, 400);
    const { cards } = buildFoldRecallContext(index, signals, createRecallState(), { cardTokens: 300 });
    expect(cards).toHaveLength(1);
    expect(cards[0].tokens).toBeLessThanOrEqual(300);
    expect(cards[0].text).toContain("export const MARKER_0 = 'src/mod0.ts'; // the line that matters");
    expect(cards[0].text).toContain('result (excerpt):');
    expect(cards[0].text).toMatch(/⋯ \(lines 1–\d+ not shown\)/);
    expect(cards[0].text).toContain('export const value199 = 1393; // module 0');
  });

  it('caps the number of cards and the total tokens', () => {
    const { index, signals } = bigFold(6, 60);
    expect(signals.paths).toHaveLength(6);
    const capped = buildFoldRecallContext(index, signals, createRecallState(), {
      maxCards: 2,
      cardTokens: 5_000,
      totalTokens: 50_000,
    });
    expect(capped.cards).toHaveLength(2);
    const byTotal = buildFoldRecallContext(index, signals, createRecallState(), {
      maxCards: 6,
      cardTokens: 400,
      totalTokens: 900,
    });
    expect(byTotal.cards.length).toBeGreaterThanOrEqual(2);
    expect(byTotal.cards.reduce((sum, card) => sum + card.tokens, 0)).toBeLessThanOrEqual(900);
  });

  it('holds every budget for any configuration', () => {
    const { index, signals } = bigFold(5, 120);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 1, max: 2_000 }),
        fc.integer({ min: 0, max: 5_000 }),
        (maxCards, cardTokens, totalTokens) => {
          const { cards } = buildFoldRecallContext(index, signals, createRecallState(), {
            maxCards,
            cardTokens,
            totalTokens,
            minCardTokens: 1,
          });
          expect(cards.length).toBeLessThanOrEqual(maxCards);
          let total = 0;
          for (const card of cards) {
            expect(card.tokens).toBe(estimateTokens(card.text));
            expect(card.tokens).toBeLessThanOrEqual(cardTokens);
            total += card.tokens;
          }
          expect(total).toBeLessThanOrEqual(totalTokens);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('uses the counter passed in the config', () => {
    const { index, signals } = bigFold(2, 30);
    const countChars = (text: string) => text.length;
    const { cards } = buildFoldRecallContext(index, signals, createRecallState(), {
      countTokens: countChars,
      cardTokens: 700,
      totalTokens: 1_400,
    });
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) expect(card.tokens).toBe(card.text.length);
  });

  it('documents its defaults', () => {
    expect(DEFAULT_RECALL_CONFIG).toEqual({
      maxCards: 3,
      cardTokens: 1_200,
      totalTokens: 2_400,
      residencyCalls: 8,
      contextLines: 3,
      wholeResultTokens: 300,
      minCardTokens: 96,
    });
    expect(() =>
      buildFoldRecallContext(bigFold(1, 1).index, bigFold(1, 1).signals, createRecallState(), { maxCards: -1 }),
    ).toThrow(FoldOptionsError);
  });
});

describe('mention and identifier cards', () => {
  it('show only the lines around the match when the naming result is large', () => {
    const noise = Array.from({ length: 200 }, (_, line) => `noise line ${line} about nothing in particular`);
    noise[120] = 'ERROR in src/deep/module.ts: cannot resolve ./peer';
    const script: ScriptStep[] = [
      { kind: 'user', text: 'build it' },
      { kind: 'assistant', text: '', calls: [{ id: 'b', name: 'bash', input: { command: 'npm run build' } }] },
      { kind: 'results', results: [{ id: 'b', name: 'bash', text: noise.join('\n') }] },
      { kind: 'assistant', text: 'The build fails in the deep module.' },
      { kind: 'user', text: 'open it' },
      { kind: 'assistant', text: '', calls: [{ id: 'r', name: 'Read', input: { file_path: 'src/deep/module.ts' } }] },
    ];
    const messages = readHistory(renderScript(script, 'anthropic'));
    const index = buildFoldIndex(messages, [[0, 4]]);
    const { cards } = buildFoldRecallContext(index, extractRecallSignals(messages, 5), createRecallState(), {
      cardTokens: 5_000,
      totalTokens: 5_000,
    });
    expect(cards).toHaveLength(1);
    expect(cards[0].trigger).toBe('path-mention');
    expect(cards[0].text).toContain('ERROR in src/deep/module.ts: cannot resolve ./peer');
    expect(cards[0].text).toContain('noise line 117');
    expect(cards[0].text).not.toContain('noise line 116 ');
    expect(cards[0].text).toContain('⋯ (lines 1–117 not shown)');
    expect(cards[0].text).toContain('conclusion: The build fails in the deep module.');
  });
});
