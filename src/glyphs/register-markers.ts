import type { RegisterName } from './register-glyphs.ts';

export interface RegisterMarker {
  readonly register: RegisterName;
  /** Text as it must appear (ASCII forms compare case-insensitively). */
  readonly text: string;
  readonly ascii: boolean;
}

/*
 * Every spelling the parser accepts at the opening of a message.
 * Emoji: the canonical glyph plus close look-alikes models emit (🔎, ❔).
 * U+FE0F / U+FE0E after any emoji is consumed by the parser, so ⚠ and ⚠️, ▶ and ▶️ both match.
 * ASCII fallbacks, for transports that strip emoji: a bracket tag ([verdict]) or a
 * GitHub/Slack shortcode (:checkered_flag:). Both are delimited, so ordinary prose
 * such as "Warning: ..." or "? ..." never reads as a register.
 */
const emoji: readonly (readonly [RegisterName, string])[] = [
  ['in-progress', '🔍'],
  ['in-progress', '🔎'],
  ['executing', '▶'],
  ['verdict', '🏁'],
  ['hazard', '⚠'],
  ['blocked', '❓'],
  ['blocked', '❔'],
];

const ascii: readonly (readonly [RegisterName, string])[] = [
  ['in-progress', '[in-progress]'],
  ['in-progress', '[in_progress]'],
  ['in-progress', '[progress]'],
  ['in-progress', ':mag:'],
  ['in-progress', ':mag_right:'],
  ['executing', '[executing]'],
  ['executing', ':arrow_forward:'],
  ['verdict', '[verdict]'],
  ['verdict', ':checkered_flag:'],
  ['hazard', '[hazard]'],
  ['hazard', ':warning:'],
  ['blocked', '[blocked]'],
  ['blocked', ':question:'],
];

export const REGISTER_MARKERS: readonly RegisterMarker[] = Object.freeze([
  ...emoji.map(([register, text]) => Object.freeze({ register, text, ascii: false })),
  ...ascii.map(([register, text]) => Object.freeze({ register, text, ascii: true })),
]);
