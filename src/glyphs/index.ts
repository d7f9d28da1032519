export type { RegisterName, RegisterGlyph } from './register-glyphs.ts';
export type { RegisterMarker } from './register-markers.ts';
export type { RegisterClassification } from './parse-register-glyph.ts';
export { REGISTER_GLYPHS, REGISTER_NAMES, registerGlyph, isSettledRegister } from './register-glyphs.ts';
export { REGISTER_MARKERS } from './register-markers.ts';
export { parseRegisterGlyph, classifyAssistantRegister } from './parse-register-glyph.ts';
