import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { FoldOptionsError } from '../../src/errors.ts';
import {
  REGISTER_GLYPHS,
  REGISTER_NAMES,
  classifyAssistantRegister,
  isSettledRegister,
  parseRegisterGlyph,
  registerGlyph,
} from '../../src/glyphs/index.ts';

describe('REGISTER_GLYPHS', () => {
  it('lists the five registers in grammar order with their glyphs', () => {
    expect(REGISTER_GLYPHS.map((entry) => [entry.name, entry.glyph])).toEqual([
      ['in-progress', '🔍'],
      ['executing', '▶️'],
      ['verdict', '🏁'],
      ['hazard', '⚠️'],
      ['blocked', '❓'],
    ]);
    expect(REGISTER_NAMES).toEqual(['in-progress', 'executing', 'verdict', 'hazard', 'blocked']);
  });

  it('marks only verdict and hazard as settled', () => {
    expect(REGISTER_GLYPHS.filter((entry) => entry.settled).map((entry) => entry.name)).toEqual(['verdict', 'hazard']);
  });

  it('is frozen, table and rows', () => {
    expect(Object.isFrozen(REGISTER_GLYPHS)).toBe(true);
    expect(REGISTER_GLYPHS.every((entry) => Object.isFrozen(entry))).toBe(true);
    expect(() => {
      (REGISTER_GLYPHS as unknown as { push(value: unknown): void }).push({});
    }).toThrow();
  });

  it('looks a register up by name', () => {
    expect(registerGlyph('hazard').glyph).toBe('⚠️');
    expect(() => registerGlyph('nope' as never)).toThrow(FoldOptionsError);
  });
});

describe('parseRegisterGlyph', () => {
  it.each([
    ['🔍 looking at the parser', 'in-progress'],
    ['▶ running the suite', 'executing'],
    ['▶️ running the suite', 'executing'],
    ['🏁 the bug is in tokenize()', 'verdict'],
    ['⚠ never call close() twice', 'hazard'],
    ['⚠️ never call close() twice', 'hazard'],
    ['❓ which branch should I use?', 'blocked'],
  ] as const)('reads %j as %s', (text, register) => {
    expect(parseRegisterGlyph(text)).toBe(register);
  });

  it('accepts look-alike emoji models emit', () => {
    expect(parseRegisterGlyph('🔎 checking')).toBe('in-progress');
    expect(parseRegisterGlyph('❔ need a token')).toBe('blocked');
  });

  it('tolerates leading whitespace, bullets, numbering, headings and bold', () => {
    expect(parseRegisterGlyph('   \n\t🏁 done')).toBe('verdict');
    expect(parseRegisterGlyph('- 🏁 done')).toBe('verdict');
    expect(parseRegisterGlyph('* ⚠️ careful')).toBe('hazard');
    expect(parseRegisterGlyph('+ ▶ go')).toBe('executing');
    expect(parseRegisterGlyph('• 🔍 hmm')).toBe('in-progress');
    expect(parseRegisterGlyph('1. 🏁 done')).toBe('verdict');
    expect(parseRegisterGlyph('2) ❓ which?')).toBe('blocked');
    expect(parseRegisterGlyph('## 🏁 Verdict')).toBe('verdict');
    expect(parseRegisterGlyph('**🏁 Verdict:** it works')).toBe('verdict');
  });

  it('accepts ASCII fallbacks, case-insensitively', () => {
    expect(parseRegisterGlyph('[verdict] fixed')).toBe('verdict');
    expect(parseRegisterGlyph('[HAZARD] do not rebase')).toBe('hazard');
    expect(parseRegisterGlyph('[in_progress] reading')).toBe('in-progress');
    expect(parseRegisterGlyph('[progress] reading')).toBe('in-progress');
    expect(parseRegisterGlyph('[executing] now')).toBe('executing');
    expect(parseRegisterGlyph('[Blocked] need a key')).toBe('blocked');
    expect(parseRegisterGlyph(':checkered_flag: done')).toBe('verdict');
    expect(parseRegisterGlyph(':warning: trap')).toBe('hazard');
    expect(parseRegisterGlyph(':mag: looking')).toBe('in-progress');
    expect(parseRegisterGlyph(':arrow_forward: go')).toBe('executing');
    expect(parseRegisterGlyph(':question: which?')).toBe('blocked');
  });

  it('returns null without an opening register', () => {
    expect(parseRegisterGlyph('')).toBeNull();
    expect(parseRegisterGlyph('   ')).toBeNull();
    expect(parseRegisterGlyph('The fix is done 🏁')).toBeNull();
    expect(parseRegisterGlyph('Warning: this is prose')).toBeNull();
    expect(parseRegisterGlyph('? maybe')).toBeNull();
    expect(parseRegisterGlyph('verdict: fine')).toBeNull();
    expect(parseRegisterGlyph('```\n🏁 in code\n```')).toBeNull();
    expect(parseRegisterGlyph('-🏁 no space after bullet')).toBeNull();
  });

  it('does not read a blockquote as fresh speech', () => {
    expect(parseRegisterGlyph('> 🏁 an earlier conclusion')).toBeNull();
  });

  it('rejects two different registers back to back, accepts a repeat', () => {
    expect(parseRegisterGlyph('🏁⚠️ both?')).toBeNull();
    expect(parseRegisterGlyph('🏁 ⚠ both?')).toBeNull();
    expect(parseRegisterGlyph('🏁🏁 really done')).toBe('verdict');
  });

  it('returns null for non-string input from untyped callers', () => {
    expect(parseRegisterGlyph(undefined as unknown as string)).toBeNull();
    expect(parseRegisterGlyph(42 as unknown as string)).toBeNull();
  });
});

describe('classifyAssistantRegister', () => {
  it('returns register, settled flag, canonical glyph, marker and body', () => {
    expect(classifyAssistantRegister('⚠ never call close() twice')).toEqual({
      register: 'hazard',
      settled: true,
      glyph: '⚠️',
      marker: '⚠',
      body: 'never call close() twice',
    });
    expect(classifyAssistantRegister('- ▶️ running tests')).toEqual({
      register: 'executing',
      settled: false,
      glyph: '▶️',
      marker: '▶️',
      body: 'running tests',
    });
  });

  it('drops the bold closer paired with a bold opener', () => {
    expect(classifyAssistantRegister('**🏁 Verdict:** tests pass').body).toBe('Verdict: tests pass');
  });

  it('keeps the whole text as body when there is no register', () => {
    expect(classifyAssistantRegister('  plain text')).toEqual({
      register: null,
      settled: false,
      glyph: null,
      marker: null,
      body: '  plain text',
    });
  });

  it('keeps multi-line bodies intact', () => {
    expect(classifyAssistantRegister('🏁\nline one\nline two').body).toBe('line one\nline two');
  });

  it('agrees with parseRegisterGlyph and isSettledRegister on any text', () => {
    const glyphs = ['🔍', '▶', '▶️', '🏁', '⚠', '⚠️', '❓', '[verdict]', ':warning:', '- ', '> ', ' ', 'x'];
    const text = fc
      .tuple(fc.array(fc.constantFrom(...glyphs), { maxLength: 4 }), fc.string())
      .map(([parts, rest]) => parts.join('') + rest);
    fc.assert(
      fc.property(text, (value) => {
        const classification = classifyAssistantRegister(value);
        expect(classification.register).toBe(parseRegisterGlyph(value));
        expect(classification.settled).toBe(isSettledRegister(classification.register));
        if (classification.register !== null) {
          expect(classification.glyph).toBe(registerGlyph(classification.register).glyph);
          expect(value.includes(classification.marker ?? '\u0000')).toBe(true);
          expect(classification.body.length).toBeLessThan(value.length);
        }
      }),
    );
  });

  it('only ever settles verdict and hazard', () => {
    for (const entry of REGISTER_GLYPHS) {
      expect(classifyAssistantRegister(`${entry.glyph} text`).settled).toBe(
        entry.name === 'verdict' || entry.name === 'hazard',
      );
    }
  });
});

describe('isSettledRegister', () => {
  it('is true only for verdict and hazard', () => {
    expect(REGISTER_NAMES.filter((name) => isSettledRegister(name))).toEqual(['verdict', 'hazard']);
    expect(isSettledRegister(null)).toBe(false);
    expect(isSettledRegister(undefined)).toBe(false);
  });
});
