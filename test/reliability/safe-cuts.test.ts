/**
 * Findings 5 and 6 of issue 14. Text is cut only at code-point boundaries, and not inside the
 * common grapheme clusters (emoji with modifiers, ZWJ sequences, flags, combining marks), wherever
 * it is cut: the clip of an oversized message, skeleton and key-argument lines, long fold
 * fragments, recall excerpts, the rebirth seed. And a copied message keeps an own `__proto__` key
 * as a plain key instead of losing it or making it the copy's prototype.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FoldSession, type ProviderMessage } from '../../src/index.ts';
import { clipProviderMessage, clipText } from '../../src/messages/write-synthetic.ts';
import { cutAfter, cutBefore, headOf, splitsCluster, tailOf } from '../../src/text/safe-cut.ts';
import { DIALECTS, toDialect } from '../helpers/dialects.ts';
import { stringLeaves } from '../helpers/view-checks.ts';

/** A lone surrogate half anywhere in the string. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const CLUSTERS = [
  '😀',
  '👍🏽',
  '👩\u200d👩\u200d👧',
  '🇯🇵',
  '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}',
  'e\u0301',
  '1\ufe0f\u20e3',
  '❤\ufe0f',
  'क्षि',
  '\r\n',
];

describe('cuts land on character and cluster boundaries', () => {
  it("the repro: '😀'.repeat(150001) as a tool result at ceiling 4,000 clips without a lone surrogate", () => {
    for (const dialect of DIALECTS) {
      const script = {
        system: 'sys',
        turns: [
          {
            instruction: 'Print the emoji log.',
            steps: [
              {
                calls: [{ id: 'e1', name: 'bash', args: { command: 'cat emoji.log' } }],
                results: [{ text: '😀'.repeat(150_001), isError: false }],
              },
            ],
          },
        ],
      };
      const outcome = new FoldSession({ pressureCeiling: 4_000, now: () => 0 }).prepare(toDialect(script, dialect));
      const leaves = stringLeaves(outcome.messages);
      expect(
        leaves.some((leaf) => leaf.includes('[warpfold clipped')),
        dialect,
      ).toBe(true);
      expect(
        leaves.filter((leaf) => LONE_SURROGATE.test(leaf)),
        dialect,
      ).toEqual([]);
    }
  });

  it('clipText keeps whole clusters on both sides of the marker', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...CLUSTERS, 'a', ' ', '\n'), { minLength: 50, maxLength: 400 }),
        fc.integer({ min: 5, max: 300 }),
        (pieces, maxChars) => {
          const text = pieces.join('');
          const clipped = clipText(text, maxChars);
          expect(LONE_SURROGATE.test(clipped)).toBe(false);
          if (clipped === text) return;
          const [head, rest] = clipped.split('\n[warpfold clipped ');
          const tail = rest.slice(rest.indexOf(']\n') + 2);
          // the head is a prefix of whole pieces, the tail a suffix of whole pieces
          const boundaries = new Set([0]);
          let at = 0;
          for (const piece of pieces) boundaries.add((at += piece.length));
          expect(boundaries.has(head.length), `head of ${head.length} ends between pieces`).toBe(true);
          expect(boundaries.has(text.length - tail.length), `tail of ${tail.length} starts between pieces`).toBe(true);
        },
      ),
      { numRuns: 300, seed: 14_005 },
    );
  });

  it('cutBefore / cutAfter never split a cluster, and leave ASCII cuts where they are', () => {
    for (const cluster of CLUSTERS) {
      const text = `ab${cluster}${cluster}cd`;
      for (let at = 0; at <= text.length; at++) {
        for (const cut of [cutBefore(text, at), cutAfter(text, at)]) {
          const boundaries = [0, 1, 2, 2 + cluster.length, 2 + 2 * cluster.length, 3 + 2 * cluster.length, text.length];
          expect(boundaries, `${JSON.stringify(cluster)} cut at ${at} → ${cut}`).toContain(cut);
        }
      }
    }
    expect(cutBefore('plain ascii text', 7)).toBe(7);
    expect(splitsCluster('a\r\nb', 2)).toBe(true);
    expect(headOf('🇯🇵🇯🇵', 7)).toBe('🇯🇵');
    expect(headOf('🇯🇵🇯🇵', 3)).toBe('');
    expect(tailOf('😀😀', 3)).toBe('😀');
  });

  it.each(DIALECTS)('every string of every view over emoji-heavy histories is well formed (%s)', (dialect) => {
    const blob = (seed: number, length: number) =>
      Array.from({ length }, (_, n) => CLUSTERS[(seed + n * 7) % CLUSTERS.length] + (n % 9 === 0 ? '\n' : '')).join('');
    const turns = Array.from({ length: 8 }, (_, t) => ({
      instruction: `Step ${t}: ${blob(t, 40)}`,
      steps: [
        {
          text: blob(t + 3, 120),
          calls: [{ id: `c${t}`, name: 'bash', args: { command: `echo ${blob(t + 5, 200)}` } }],
          results: [{ text: blob(t + 11, t === 7 ? 40_000 : 900), isError: t % 3 === 0 }],
        },
      ],
      reply: blob(t + 13, 60),
    }));
    const history = toDialect({ system: 'sys', turns }, dialect);
    const session = new FoldSession({ pressureCeiling: 2_000, now: () => 0 });
    for (let length = 2; length <= history.length; length++) {
      const outcome = session.prepare(history.slice(0, length));
      expect(
        stringLeaves(outcome.messages).filter((leaf) => LONE_SURROGATE.test(leaf)),
        `history length ${length}`,
      ).toEqual([]);
    }
  });
});

describe('an own __proto__ key survives a copy', () => {
  it('the repro: a 340 KB message parsed from JSON with an own "__proto__" key, once clipped', () => {
    const raw = `[{"role":"user","content":"Read the dump."},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\\"command\\":\\"cat dump\\"}"}}]},{"role":"tool","tool_call_id":"call_1","content":${JSON.stringify('x'.repeat(340_000))},"__proto__":{"content":"EVIL"}}]`;
    const history = JSON.parse(raw) as ProviderMessage[];
    expect(Object.getPrototypeOf(history[2])).toBe(Object.prototype);
    const outcome = new FoldSession({ pressureCeiling: 4_000, now: () => 0 }).prepare(history);
    expect(outcome.stats.clippedMessages).toBe(1);
    const copy = outcome.messages[outcome.messages.length - 1];
    expect(copy).not.toBe(history[2]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ content: 'EVIL' });
    expect(String(copy.content)).toContain('[warpfold clipped');
    // and the provider sees what the host would have sent
    expect(JSON.stringify(copy)).toContain('"__proto__":{"content":"EVIL"}');
  });

  it('clipProviderMessage keeps nested own __proto__ keys as plain keys too', () => {
    const message = JSON.parse(
      '{"role":"user","content":[{"type":"text","text":"hello world","__proto__":{"polluted":true}}]}',
    ) as ProviderMessage;
    const copy = clipProviderMessage(message, 5) as { content: Array<Record<string, unknown>> };
    expect(Object.getPrototypeOf(copy.content[0])).toBe(Object.prototype);
    expect(Object.hasOwn(copy.content[0], '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
