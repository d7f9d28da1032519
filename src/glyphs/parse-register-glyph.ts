import { isSettledRegister, registerGlyph, type RegisterName } from './register-glyphs.ts';
import { REGISTER_MARKERS, type RegisterMarker } from './register-markers.ts';

export interface RegisterClassification {
  register: RegisterName | null;
  settled: boolean;
  /** Canonical glyph of the register (⚠️ even when the text wrote a bare ⚠). */
  glyph: string | null;
  /** The exact opening marker as written, variation selector included. */
  marker: string | null;
  /** The message without its prefix and marker; the whole text when there is no register. */
  body: string;
}

interface OpeningMatch {
  register: RegisterName;
  marker: string;
  bodyStart: number;
  emphasis: string | null;
}

// Whitespace, list bullets, ordered-list numbers and heading markers may precede the glyph.
// Blockquotes may not: a quoted "> 🏁 ..." is someone else's conclusion, not fresh speech.
const containerPrefix = /^(?:\s+|[-*+•](?=\s)|\d{1,3}[.)](?=\s)|#{1,6}(?=\s))*/u;
const emphasisOpener = /^(?:\*\*|__)/u;
const variationSelector = /^[\uFE0E\uFE0F]/u;
const inlineSpace = /^[ \t]*/u;

function markerAt(text: string, start: number): { marker: RegisterMarker; end: number } | null {
  const rest = text.slice(start);
  for (const marker of REGISTER_MARKERS) {
    const candidate = rest.slice(0, marker.text.length);
    const matches = marker.ascii ? candidate.toLowerCase() === marker.text : candidate === marker.text;
    if (!matches) continue;
    let end = start + marker.text.length;
    if (!marker.ascii && variationSelector.test(text.slice(end))) end += 1;
    return { marker, end };
  }
  return null;
}

/** The one parser: every caller (episodes, narration, harvest gates) goes through here. */
function matchOpening(text: string): OpeningMatch | null {
  let start = containerPrefix.exec(text)?.[0].length ?? 0;
  const emphasis = emphasisOpener.exec(text.slice(start))?.[0] ?? null;
  if (emphasis !== null) start += emphasis.length;
  const first = markerAt(text, start);
  if (first === null) return null;
  let end = first.end;
  // A second marker right after the first: same register is a harmless repeat,
  // a different one makes the message ambiguous, so it gets no register at all.
  for (;;) {
    const gap = inlineSpace.exec(text.slice(end))?.[0].length ?? 0;
    const next = markerAt(text, end + gap);
    if (next === null) break;
    if (next.marker.register !== first.marker.register) return null;
    end = next.end;
  }
  return { register: first.marker.register, marker: text.slice(start, first.end), bodyStart: end, emphasis };
}

/** The register named by the message's opening glyph, or null. */
export function parseRegisterGlyph(text: string): RegisterName | null {
  if (typeof text !== 'string') return null;
  return matchOpening(text)?.register ?? null;
}

export function classifyAssistantRegister(text: string): RegisterClassification {
  const source = typeof text === 'string' ? text : '';
  const match = matchOpening(source);
  if (match === null) return { register: null, settled: false, glyph: null, marker: null, body: source };
  let body = source.slice(match.bodyStart).trimStart();
  // "**🏁 Verdict:** ..." — drop the closer that pairs with the opener we stepped over.
  if (match.emphasis !== null) {
    const closer = body.indexOf(match.emphasis);
    if (closer !== -1) body = body.slice(0, closer) + body.slice(closer + match.emphasis.length);
  }
  return {
    register: match.register,
    settled: isSettledRegister(match.register),
    glyph: registerGlyph(match.register).glyph,
    marker: match.marker,
    body,
  };
}
