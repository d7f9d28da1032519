import { FoldOptionsError } from '../errors.ts';

/** The five registers an assistant message can open with. */
export type RegisterName = 'in-progress' | 'executing' | 'verdict' | 'hazard' | 'blocked';

export interface RegisterGlyph {
  readonly name: RegisterName;
  /** Canonical glyph, written with U+FE0F where the emoji form needs it. */
  readonly glyph: string;
  /** Settled registers are conclusions worth keeping; only these are harvested. */
  readonly settled: boolean;
  readonly meaning: string;
}

const table: readonly RegisterGlyph[] = [
  { name: 'in-progress', glyph: '🔍', settled: false, meaning: 'investigating; hypotheses, not conclusions' },
  { name: 'executing', glyph: '▶️', settled: false, meaning: 'work underway' },
  { name: 'verdict', glyph: '🏁', settled: true, meaning: 'verified conclusion' },
  { name: 'hazard', glyph: '⚠️', settled: true, meaning: 'trap or invariant to remember' },
  { name: 'blocked', glyph: '❓', settled: false, meaning: 'needs input before work can continue' },
];

/** Frozen table, in the order agents are taught the grammar. */
export const REGISTER_GLYPHS: readonly RegisterGlyph[] = Object.freeze(table.map((entry) => Object.freeze(entry)));

export const REGISTER_NAMES: readonly RegisterName[] = Object.freeze(REGISTER_GLYPHS.map((entry) => entry.name));

export function registerGlyph(name: RegisterName): RegisterGlyph {
  const entry = REGISTER_GLYPHS.find((candidate) => candidate.name === name);
  if (entry === undefined)
    throw new FoldOptionsError(
      'name',
      `unknown register ${JSON.stringify(name)}; the registers are ${REGISTER_NAMES.join(', ')}`,
    );
  return entry;
}

/** True only for verdict and hazard: the registers episodes may harvest. */
export function isSettledRegister(register: RegisterName | null | undefined): boolean {
  if (register === null || register === undefined) return false;
  return REGISTER_GLYPHS.some((entry) => entry.name === register && entry.settled);
}
