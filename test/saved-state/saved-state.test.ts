/**
 * The saved session format: versioned, migrated from v1, checked against its digest and field by
 * field, restored into fresh objects, and never served when damaged.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { savedStateDigest } from '../../src/freeze/encode-saved-state.ts';
import {
  FoldSession,
  FoldStateError,
  type FoldSessionOptions,
  type ProviderMessage,
  type SavedFoldSession,
} from '../../src/index.ts';
import { SAVED_SESSION_FORMAT, SAVED_SESSION_VERSION } from '../../src/freeze/index.ts';
import { toDialect } from '../helpers/dialects.ts';
import { preparePoints } from '../helpers/drive.ts';
import { marathonScript } from '../helpers/scripts.ts';
import { sessionOpening, syntheticTurn } from '../helpers/workloads/synthetic-session.ts';

const FIXTURES = new URL('./fixtures/', import.meta.url);
const readJson = (name: string) => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));

const v1 = readJson('v1-snapshot.json') as {
  pressureCeiling: number;
  clockStepMs: number;
  snapshotClock: number;
  foldConfig: FoldSessionOptions['foldConfig'];
  snapshotAfterHistoryLength: number;
  snapshot: Record<string, unknown> & { bands: Array<{ text: string; start: number; end: number; tokens: number }> };
  next: Array<{ historyLength: number; sha256: string; epochReason: string | null; cacheHot: boolean }>;
};
const v1Messages = (readJson('sweagent-gpt4-pydicom__pydicom-1458.json') as { messages: ProviderMessage[] }).messages;

/** A real session driven to the point where it has sealed bands, and what it saved there. */
function sealedSession() {
  let clock = 1_700_000_000_000;
  const options = { pressureCeiling: 6_000, now: () => clock, countTokens };
  const session = new FoldSession(options);
  const points = preparePoints(v1Messages);
  let at = 0;
  for (const point of points) {
    clock += 20_000;
    const outcome = session.prepare(v1Messages.slice(0, point));
    at = point;
    if (outcome.stats.bands >= 2 && !outcome.stats.epochReason) break;
  }
  return { session, options, at, clock: () => clock, saved: JSON.parse(session.snapshot()) as SavedFoldSession };
}

const restoreError = (
  state: unknown,
  options: FoldSessionOptions = { pressureCeiling: 6_000, countTokens },
): FoldStateError => {
  try {
    new FoldSession({ ...options, restoredState: state as string });
  } catch (error) {
    expect(error).toBeInstanceOf(FoldStateError);
    return error as FoldStateError;
  }
  throw new Error(`restore accepted a bad state: ${JSON.stringify(state).slice(0, 60)}`);
};

/** A saved state edited by `edit`, with its digest made to match again: only field checks can catch it. */
function forged(saved: SavedFoldSession, edit: (state: Record<string, any>) => void): SavedFoldSession {
  const copy = structuredClone(saved) as SavedFoldSession & { state: Record<string, any> };
  edit(copy.state);
  return { ...copy, digest: savedStateDigest(copy.state) };
}

describe('saved format', () => {
  it('names its format and version, and carries a digest of its content', () => {
    const { saved } = sealedSession();
    expect(saved.format).toBe(SAVED_SESSION_FORMAT);
    expect(saved.version).toBe(SAVED_SESSION_VERSION);
    expect(saved.digest).toMatch(/^[0-9a-f]{16}$/);
    expect(saved.digest).toBe(savedStateDigest(saved.state));
    expect(saved.state.bands.length).toBeGreaterThanOrEqual(2);
  });

  it('restores and resumes byte for byte, as text or parsed, whatever the key order', () => {
    const { session, options, at, saved } = sealedSession();
    const reordered = JSON.parse(
      JSON.stringify(saved, (_key, value) =>
        value && typeof value === 'object' && !Array.isArray(value)
          ? Object.fromEntries(Object.entries(value).reverse())
          : value,
      ),
    );
    expect(Object.keys(reordered)[0]).toBe('state');
    const restoredFromText = new FoldSession({ ...options, restoredState: JSON.stringify(saved) });
    const restoredFromObject = new FoldSession({ ...options, restoredState: reordered });
    const next = v1Messages.slice(0, Math.min(v1Messages.length, at + 2));
    const expected = JSON.stringify(session.prepare(next).messages);
    expect(JSON.stringify(restoredFromText.prepare(next).messages)).toBe(expected);
    expect(JSON.stringify(restoredFromObject.prepare(next).messages)).toBe(expected);
  });

  it('never mutates or keeps the object it restores from', () => {
    const { options, at, saved } = sealedSession();
    const frozen = structuredClone(saved);
    const deepFreeze = (value: unknown): void => {
      if (value && typeof value === 'object') {
        Object.freeze(value);
        Object.values(value).forEach(deepFreeze);
      }
    };
    deepFreeze(frozen);
    const before = JSON.stringify(frozen);
    const restored = new FoldSession({ ...options, restoredState: frozen });
    restored.prepare(v1Messages.slice(0, at));
    restored.prepare(v1Messages.slice(0, v1Messages.length));
    expect(JSON.stringify(frozen)).toBe(before);
    // the next snapshot is a new object graph, not the input's
    expect(JSON.parse(restored.snapshot()).state.bands[0]).not.toBe(frozen.state.bands[0]);
  });
});

describe('snapshot() never writes what a restore refuses (issue 29)', () => {
  it('a restored session saves the very state it was given', () => {
    const { options, saved } = sealedSession();
    const text = JSON.stringify(saved);
    expect(new FoldSession({ ...options, restoredState: text }).snapshot()).toBe(text);
  });

  it('a state its own decoder would refuse is saved unsealed instead, and that restores and folds on', () => {
    const { session, options, at, saved } = sealedSession();
    // no call leaves a prefix with a gap any more: the damage is made by hand, as a regression would
    const engine = session as unknown as { state: { bands: unknown[] } };
    engine.state = { ...engine.state, bands: [] };
    const text = session.snapshot();
    const written = JSON.parse(text) as SavedFoldSession;
    expect(written.state.bands).toEqual([]);
    expect(written.state.history.coveredEnd).toBe(0);
    expect(written.state.counters).toEqual(saved.state.counters);
    const restored = new FoldSession({ ...options, restoredState: text });
    const outcome = restored.prepare(v1Messages.slice(0, Math.min(v1Messages.length, at + 2)));
    expect(outcome.stats.viewTokens).toBeLessThanOrEqual(6_000);
    expect(outcome.stats.epochReason).toBeDefined();
  });
});

describe('migration from version 1', () => {
  it('restores the checked-in v1 snapshot of 0.1.0 and, its fold rules changed, re-seals as a fresh session would', () => {
    let clock = v1.snapshotClock;
    // the fold rules of 0.1.0 (its config fingerprint) are gone: the restored state is checked and
    // read, then its prefix is sealed again from the history, exactly as a session started here folds it
    const options = { pressureCeiling: v1.pressureCeiling, now: () => clock, countTokens, recall: false as const };
    const restored = new FoldSession({ ...options, restoredState: JSON.stringify(v1.snapshot) });
    const fresh = new FoldSession(options);
    for (const expected of v1.next) {
      clock += v1.clockStepMs;
      const history = v1Messages.slice(0, expected.historyLength);
      expect(JSON.stringify(restored.prepare(history).messages)).toBe(JSON.stringify(fresh.prepare(history).messages));
    }
    const saved = JSON.parse(restored.snapshot()) as SavedFoldSession;
    expect(saved.version).toBe(SAVED_SESSION_VERSION);
    expect(saved.state.counterProbe).toBe(
      countTokens('warpfold counter probe: Ünïcödé «text», code `x = f(42)`;\n\t{"k": [1, 2]} 日本語 😀'),
    );
  });

  it('checks a v1 state field by field too', () => {
    const broken = {
      ...v1.snapshot,
      bands: [{ ...v1.snapshot.bands[0], lineKeys: [42, null] }, ...v1.snapshot.bands.slice(1)],
    };
    expect(restoreError(broken).field).toBe('state.bands[0].lineKeys[0]');
    expect(restoreError({ ...v1.snapshot, dialect: 'klingon' }).field).toBe('state.dialect');
  });
});

describe('a state saved before the fold config became one profile', () => {
  it('restores, re-seals once as a config change, and then folds as a fresh session would', () => {
    const before = readJson('v3-two-profile-snapshot.json') as {
      pressureCeiling: number;
      clockStepMs: number;
      snapshotClock: number;
      snapshotAfterHistoryLength: number;
      snapshot: SavedFoldSession;
    };
    expect(before.snapshot.version).toBe(SAVED_SESSION_VERSION);
    let clock = before.snapshotClock;
    const options = { pressureCeiling: before.pressureCeiling, now: () => clock, countTokens };
    const restored = new FoldSession({ ...options, restoredState: JSON.stringify(before.snapshot) });
    const fresh = new FoldSession(options);
    const points = preparePoints(v1Messages).filter((point) => point > before.snapshotAfterHistoryLength);
    points.forEach((point, index) => {
      clock += before.clockStepMs;
      const history = v1Messages.slice(0, point);
      const outcome = restored.prepare(history);
      if (index === 0) expect(outcome.stats.epochReason).toBe('config-changed');
      expect(JSON.stringify(outcome.messages)).toBe(JSON.stringify(fresh.prepare(history).messages));
    });
  });
});

describe('migration from version 2', () => {
  it('a version 2 state (bands without origins) restores and folds on as the version 3 state does', () => {
    // at 16,000 no merge of these 120 turns re-reads past the bound, so bands without origins fold the same
    let clock = 0;
    const options = { pressureCeiling: 16_000, countTokens, now: () => clock };
    const original = new FoldSession(options);
    const history = sessionOpening() as ProviderMessage[];
    const step = (turn: number, session: FoldSession, into: ProviderMessage[]) => {
      const [first, ...rest] = syntheticTurn(turn) as ProviderMessage[];
      if (first.role === 'user') into.push(first);
      clock = turn * 20_000;
      const view = JSON.stringify(session.prepare(into));
      into.push(...(first.role === 'user' ? rest : [first, ...rest]));
      return view;
    };
    for (let turn = 0; turn < 40; turn++) step(turn, original, history);
    const saved = JSON.parse(original.snapshot()) as SavedFoldSession;
    expect(saved.state.bands.length).toBeGreaterThan(0);
    expect(saved.state.bands.every((band) => band.origins !== undefined)).toBe(true);
    const state = structuredClone(saved.state) as unknown as Record<string, any>;
    for (const band of state.bands) delete band.origins;
    const restored = new FoldSession({
      ...options,
      restoredState: {
        format: SAVED_SESSION_FORMAT,
        version: 2,
        digest: savedStateDigest(state),
        state,
      } as unknown as SavedFoldSession,
    });
    const copy = history.slice();
    for (let turn = 40; turn < 120; turn++)
      expect(step(turn, restored, copy), `turn ${turn}`).toBe(step(turn, original, history));
    const resaved = JSON.parse(restored.snapshot()) as SavedFoldSession;
    expect(resaved.version).toBe(SAVED_SESSION_VERSION);
    // bands sealed after the restore (new, or merged) carry origins; one kept from the version 2 state has none
    const keptFromBefore = (band: { start: number; end: number; text: string }) =>
      saved.state.bands.some((old) => old.start === band.start && old.end === band.end && old.text === band.text);
    const newer = resaved.state.bands.filter((band) => !keptFromBefore(band));
    expect(newer.length).toBeGreaterThan(0);
    expect(newer.every((band) => band.origins !== undefined)).toBe(true);
    expect(resaved.state.bands.filter(keptFromBefore).every((band) => band.origins === undefined)).toBe(true);
  });
});

describe('bad states are refused with a FoldStateError naming the field', () => {
  const { saved } = sealedSession();
  const text = JSON.stringify(saved);

  it('unreadable: not JSON, cut short, not an object', () => {
    for (const state of [
      'not json',
      text.slice(0, text.length - 1),
      text.slice(0, text.length >> 1),
      '[]',
      '42',
      'null',
    ]) {
      const error = restoreError(state);
      expect(error.problem).toBe('unreadable');
      expect(error.field).toBe('$');
    }
  });

  it('unsupported: another format, a future version, a version that never had a format name', () => {
    expect(restoreError({ ...saved, format: 'other/thing' })).toMatchObject({
      problem: 'unsupported-version',
      field: 'format',
    });
    expect(restoreError({ ...saved, version: SAVED_SESSION_VERSION + 1 })).toMatchObject({
      problem: 'unsupported-version',
      field: 'version',
    });
    expect(restoreError({ ...saved, version: 1 })).toMatchObject({ problem: 'unsupported-version', field: 'version' });
    expect(restoreError({ ...saved, version: 'two' })).toMatchObject({ problem: 'invalid-field', field: 'version' });
  });

  it('integrity: any edit of the content that leaves the digest as it was', () => {
    const edits: Array<(state: Record<string, any>) => void> = [
      (state) => (state.bands = []),
      (state) =>
        (state.bands[0].text = state.bands[0].text.replace(/.$/su, (last: string) => (last === 'x' ? 'y' : 'x'))),
      (state) => (state.dialect = 'gemini'),
      (state) => (state.bands[0].tokens = 0),
      (state) => (state.history.coveredFingerprint += 1),
      (state) => (state.counters.lastViewTokens = 1),
    ];
    for (const edit of edits) {
      const copy = structuredClone(saved) as SavedFoldSession & { state: Record<string, any> };
      edit(copy.state);
      expect(restoreError(copy)).toMatchObject({ problem: 'integrity', field: 'digest' });
    }
    expect(restoreError({ ...saved, digest: 'nothex' })).toMatchObject({ problem: 'invalid-field', field: 'digest' });
  });

  it('invalid fields: caught even when the digest was recomputed over the edit', () => {
    const cases: Array<[string, (state: Record<string, any>) => void]> = [
      ['state.history.coveredEnd', (state) => (state.bands = [])],
      ['state.bands[0].lineKeys[0]', (state) => (state.bands[0].lineKeys = [42, null])],
      ['state.bands[0].tokens', (state) => (state.bands[0].tokens = 0)],
      ['state.bands[0].tokens', (state) => (state.bands[0].tokens -= 1)],
      ['state.bands[1].start', (state) => (state.bands[1].start += 1)],
      ['state.dialect', (state) => (state.dialect = 'klingon')],
      [
        'state.clipped[0].maxChars',
        (state) => (state.clipped = [{ index: state.history.coveredEnd, maxChars: 'garbage', tokens: 3 }]),
      ],
      ['state.clipped[0].index', (state) => (state.clipped = [{ index: 0, maxChars: 10, tokens: 3 }])],
      ['state.calibration.factor', (state) => (state.calibration.factor = Number.NaN)],
      ['state.calibration.factor', (state) => (state.calibration.factor = 0.5)],
      ['state.counters.epochs', (state) => (state.counters.epochs = 0)],
      ['state.history.seenLength', (state) => (state.history.seenLength = 0)],
      ['state.seed', (state) => (state.seed = 'a seed')],
      ['state.cards', (state) => delete state.cards],
      ['state.recall.resident', (state) => (state.recall = { calls: 1 })],
      ['state.bands[0].origins.firstLine', (state) => (state.bands[0].origins.firstLine = 0)],
      [
        'state.bands[0].origins.lines[0]',
        (state) => (state.bands[0].origins.firstLine = state.bands[0].text.split('\n').length),
      ],
      ['state.bands[0].origins.lines[0].kind', (state) => (state.bands[0].origins.lines[0].kind = 'poem')],
      [
        'state.bands[0].origins.lines[0].messageIndex',
        (state) => (state.bands[0].origins.lines[0].messageIndex = state.bands[0].end),
      ],
      ['state.bands[0].origins.omitted[0][1]', (state) => (state.bands[0].origins.omitted = [['bash', 0]])],
      [
        'state.bands[0].origins.closet[0].kind',
        (state) => (state.bands[0].origins.closet = [{ value: 'x', kind: 'poem', messageIndex: state.bands[0].start }]),
      ],
    ];
    for (const [field, edit] of cases) {
      let error: FoldStateError | undefined;
      try {
        new FoldSession({ pressureCeiling: 6_000, countTokens, restoredState: forged(saved, edit) });
      } catch (thrown) {
        error = thrown as FoldStateError;
      }
      expect(error, field).toBeInstanceOf(FoldStateError);
      expect(error, field).toMatchObject({ problem: 'invalid-field', field });
    }
  });

  it('deep or cyclic values are refused, not a stack overflow', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 100_000; i++) deep = deep.next = {};
    expect(restoreError({ ...saved, state: { ...saved.state, bands: [root] } })).toMatchObject({
      problem: 'invalid-field',
      field: 'state',
    });
    const cyclic: Record<string, unknown> = { ...saved.state };
    cyclic.self = cyclic;
    expect(restoreError({ ...saved, state: cyclic })).toMatchObject({ field: 'state' });
  });

  it('a random edit anywhere in a saved state is never restored silently', () => {
    const leaves: string[][] = [];
    const walk = (value: unknown, path: string[]) => {
      if (value && typeof value === 'object')
        for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
      else leaves.push(path);
    };
    walk(saved.state, []);
    expect(leaves.length).toBeGreaterThan(20);
    fc.assert(
      fc.property(
        fc.constantFrom(...leaves),
        fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.boolean()),
        (path, replacement) => {
          const copy = structuredClone(saved) as SavedFoldSession & { state: Record<string, any> };
          let parent: any = copy.state;
          for (const key of path.slice(0, -1)) parent = parent[key];
          const key = path[path.length - 1];
          if (Object.is(parent[key], replacement)) return;
          parent[key] = replacement;
          expect(restoreError(copy).problem).toBe('integrity');
        },
      ),
      { seed: 9, numRuns: 300 },
    );
  });
});

describe('a restore that does not fit is re-sealed, never served', () => {
  // a restore cannot see where a history changed, only that it no longer holds what was sealed:
  // it answers as the live session does, which saw the change (issue 29: it said restored-mismatch)
  it('over another history: re-sealed as boundary-changed, byte for byte what the live session answers', () => {
    const { session, options, saved } = sealedSession();
    const other = toDialect(marathonScript(40, 3), 'openai');
    const restored = new FoldSession({ ...options, restoredState: saved });
    const outcome = restored.prepare(other);
    expect(outcome.stats.epochReason).toBe('boundary-changed');
    expect(outcome.cacheHot).toBe(false);
    expect(JSON.stringify(outcome)).toBe(JSON.stringify(session.prepare(other)));
  });

  it('over a shorter history than it sealed: boundary-changed, as the live session says', () => {
    const { session, options, saved } = sealedSession();
    const restored = new FoldSession({ ...options, restoredState: saved });
    const outcome = restored.prepare(v1Messages.slice(0, 3));
    expect(outcome.stats.epochReason).toBe('boundary-changed');
    expect(JSON.stringify(outcome)).toBe(JSON.stringify(session.prepare(v1Messages.slice(0, 3))));
  });

  it('under another token counter: re-sealed as a config change instead of trusting its counts', () => {
    const { at, saved } = sealedSession();
    const restored = new FoldSession({ pressureCeiling: 6_000, restoredState: saved });
    const outcome = restored.prepare(v1Messages.slice(0, at));
    expect(outcome.stats.epochReason).toBe('config-changed');
    expect(outcome.stats.viewTokens).toBeLessThanOrEqual(6_000);
  });
});
