/**
 * Width and height of an image from the first bytes of its base64 data (PNG, GIF, JPEG, WebP),
 * without decoding the whole payload and without any runtime API (no atob, no Buffer).
 */

export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

/** Enough of a JPEG to reach its frame header past typical EXIF and colour-profile segments. */
const HEADER_BYTES = 64 * 1024;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) DECODE[BASE64.charCodeAt(i)] = i;
DECODE['-'.charCodeAt(0)] = 62; // base64url
DECODE['_'.charCodeAt(0)] = 63;

/** Decoded bytes of the first `limit` bytes of a base64 string (whitespace skipped, stops at padding). */
export function base64Prefix(data: string, limit = HEADER_BYTES): Uint8Array {
  const out = new Uint8Array(Math.min(limit, Math.floor((data.length * 3) / 4)));
  let length = 0;
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < data.length && length < out.length; i++) {
    const code = data.charCodeAt(i);
    const value = code < 128 ? DECODE[code] : -1;
    if (value < 0) {
      if (code === 61) break; // '='
      continue;
    }
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[length++] = (buffer >> bits) & 0xff;
    }
  }
  return out.subarray(0, length);
}

/** Bytes a base64 string decodes to, from its length alone. */
export function base64Bytes(data: string): number {
  let padding = 0;
  if (data.endsWith('==')) padding = 2;
  else if (data.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

const u16be = (bytes: Uint8Array, at: number) => (bytes[at] << 8) | bytes[at + 1];
const u16le = (bytes: Uint8Array, at: number) => bytes[at] | (bytes[at + 1] << 8);
const u24le = (bytes: Uint8Array, at: number) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
const u32be = (bytes: Uint8Array, at: number) =>
  ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16) + (bytes[at + 2] << 8) + bytes[at + 3];

function jpegSize(bytes: Uint8Array): ImageSize | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    // SOF0–SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: u16be(bytes, at + 5), width: u16be(bytes, at + 7) };
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    at += 2 + u16be(bytes, at + 2);
  }
  return null;
}

/** The image's pixel size when its header says, else null. */
export function imageSizeOf(base64: string): ImageSize | null {
  const bytes = base64Prefix(base64);
  const size = readSize(bytes);
  return size && size.width > 0 && size.height > 0 ? size : null;
}

function readSize(bytes: Uint8Array): ImageSize | null {
  if (bytes.length >= 24 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47)
    return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
  if (bytes.length >= 10 && bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46)
    return { width: u16le(bytes, 6), height: u16le(bytes, 8) };
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  if (
    bytes.length >= 30 &&
    bytes[0] === 0x52 &&
    bytes[1] === 0x49 &&
    bytes[2] === 0x46 &&
    bytes[3] === 0x46 &&
    bytes[8] === 0x57 &&
    bytes[9] === 0x45 &&
    bytes[10] === 0x42 &&
    bytes[11] === 0x50
  ) {
    const chunk = String.fromCharCode(bytes[12], bytes[13], bytes[14], bytes[15]);
    if (chunk === 'VP8X') return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
    if (chunk === 'VP8L') {
      const bits = bytes[21] | (bytes[22] << 8) | (bytes[23] << 16) | (bytes[24] << 24);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8 ') return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  }
  return null;
}
