import { fnv1a } from './hash.ts';

/** Two FNV-1a passes with independent offset bases: 64 bits, so accidental corruption goes unnoticed about once in 2^64. */
const SECOND_OFFSET_BASIS = 0x050c5d1f;

/**
 * A 16-hex-digit digest of `text`, pure and identical in every runtime. It detects corruption
 * and truncation; it is not a signature (anyone can recompute it), so a host that stores state
 * where others can write it signs it itself.
 */
export function digest64(text: string): string {
  return hex8(fnv1a(text)) + hex8(fnv1a(text, SECOND_OFFSET_BASIS));
}

function hex8(value: number): string {
  return value.toString(16).padStart(8, '0');
}
