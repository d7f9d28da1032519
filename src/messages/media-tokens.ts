import type { Dialect } from './types.ts';
import { base64Bytes, base64Prefix, imageSizeOf, type ImageSize } from './image-size.ts';

/**
 * Token estimates for payloads that are not text. A provider bills images by their pixel size
 * (after its own downscaling) and audio by its length, not by the bytes of their base64, so
 * counting the base64 as text would be far off in either direction. Each estimate follows the
 * provider's published rule where the size is known, and its per-image maximum (or a
 * conservative byte-based bound) where it is not. Measured provider telemetry
 * (`measuredInputTokens`) corrects whatever remains.
 */

/** Anthropic: tokens ≈ width × height / 750, after scaling the long edge to 1,568 px and the area to about 1.15 megapixels. */
export const ANTHROPIC_PIXELS_PER_TOKEN = 750;
export const ANTHROPIC_MAX_LONG_EDGE = 1_568;
/** About 1,600 tokens: the most Anthropic bills for one image after downscaling. */
export const ANTHROPIC_MAX_IMAGE_PIXELS = 1_200_000;

/** OpenAI (GPT-4o class): 85 tokens, plus 170 per 512-px tile in high detail after fitting 2,048 px and then 768 px on the short side. */
export const OPENAI_BASE_IMAGE_TOKENS = 85;
export const OPENAI_TILE_TOKENS = 170;
/** The most the tile rule gives (8 tiles): the bound when the size is unknown. */
export const OPENAI_MAX_IMAGE_TOKENS = OPENAI_BASE_IMAGE_TOKENS + 8 * OPENAI_TILE_TOKENS;

/** Gemini: 258 tokens for an image within 384 × 384 px, else 258 per 768-px tile. */
export const GEMINI_TILE_TOKENS = 258;
/** Unknown size: taken as a 3,072-px square (16 tiles). */
export const GEMINI_UNKNOWN_IMAGE_TOKENS = 16 * GEMINI_TILE_TOKENS;

/**
 * An image of unknown size whose bytes are known is assumed no larger than 10 pixels per byte
 * (a heavily compressed JPEG holds 3–10), then capped by the provider's maximum.
 */
export const PIXELS_PER_BYTE_BOUND = 10;

/**
 * Audio: Gemini bills 32 tokens a second, OpenAI's audio models fewer. No common encoding is
 * smaller than 1,000 bytes a second (8 kbit/s), so bytes / 31 tokens bounds every provider.
 */
export const AUDIO_BYTES_PER_TOKEN = 31;

/** Video (Gemini): 263 tokens a second; at least 12,500 bytes a second (100 kbit/s) for any watchable stream. */
export const VIDEO_BYTES_PER_TOKEN = 47;

function anthropicImageTokens(size: ImageSize): number {
  let { width, height } = size;
  const edge = Math.max(width, height);
  if (edge > ANTHROPIC_MAX_LONG_EDGE) {
    width = (width * ANTHROPIC_MAX_LONG_EDGE) / edge;
    height = (height * ANTHROPIC_MAX_LONG_EDGE) / edge;
  }
  const pixels = Math.min(width * height, ANTHROPIC_MAX_IMAGE_PIXELS);
  return Math.ceil(pixels / ANTHROPIC_PIXELS_PER_TOKEN);
}

function openAiImageTokens(size: ImageSize, detail: unknown): number {
  if (detail === 'low') return OPENAI_BASE_IMAGE_TOKENS;
  let { width, height } = size;
  const fit = Math.min(1, 2_048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const short = Math.min(1, 768 / Math.min(width, height));
  width *= short;
  height *= short;
  return OPENAI_BASE_IMAGE_TOKENS + OPENAI_TILE_TOKENS * Math.ceil(width / 512) * Math.ceil(height / 512);
}

function geminiImageTokens(size: ImageSize): number {
  if (size.width <= 384 && size.height <= 384) return GEMINI_TILE_TOKENS;
  return GEMINI_TILE_TOKENS * Math.ceil(size.width / 768) * Math.ceil(size.height / 768);
}

function tokensForSize(dialect: Dialect, size: ImageSize, detail: unknown): number {
  return dialect === 'anthropic'
    ? anthropicImageTokens(size)
    : dialect === 'gemini'
      ? geminiImageTokens(size)
      : openAiImageTokens(size, detail);
}

function maximumFor(dialect: Dialect, detail: unknown): number {
  if (dialect === 'anthropic') return Math.ceil(ANTHROPIC_MAX_IMAGE_PIXELS / ANTHROPIC_PIXELS_PER_TOKEN);
  if (dialect === 'gemini') return GEMINI_UNKNOWN_IMAGE_TOKENS;
  return detail === 'low' ? OPENAI_BASE_IMAGE_TOKENS : OPENAI_MAX_IMAGE_TOKENS;
}

/**
 * Tokens of one image: `base64` when the bytes are inline (a data URL's payload, Anthropic's
 * `source.data`, Gemini's `inlineData.data`), `detail` for OpenAI's `image_url.detail`.
 */
export function imageTokens(dialect: Dialect, base64: string | undefined, detail?: unknown): number {
  const maximum = maximumFor(dialect, detail);
  if (base64 === undefined) return maximum;
  const size = imageSizeOf(base64);
  if (size) return tokensForSize(dialect, size, detail);
  const side = Math.sqrt(base64Bytes(base64) * PIXELS_PER_BYTE_BOUND);
  return Math.min(maximum, tokensForSize(dialect, { width: side, height: side }, detail));
}

/**
 * PDFs: Anthropic and OpenAI read each page as its text plus an image of the page, 1,500 to 3,000
 * tokens a page by Anthropic's PDF guide; the upper end is taken. Gemini bills 258 tokens a page.
 */
export const PDF_PAGE_TOKENS = 3_000;
export const GEMINI_PDF_PAGE_TOKENS = 258;
// A page object, not the `/Pages` tree that holds them.
const pageObject = /\/Type\s*\/Page(?![A-Za-z])/gu;

/** Pages of a base64 PDF, counted from its page objects; at least 1. */
export function pdfPageCount(base64: string): number {
  const bytes = base64Prefix(base64, Number.POSITIVE_INFINITY);
  let text = '';
  // latin-1 in slices: the page markers are ASCII, and a PDF may hold megabytes
  for (let start = 0; start < bytes.length; start += 8_192)
    text += String.fromCharCode(...bytes.subarray(start, start + 8_192));
  return Math.max(1, text.match(pageObject)?.length ?? 0);
}

/** Tokens of an inline PDF by its page count. */
export function pdfTokens(dialect: Dialect, base64: string): number {
  return pdfPageCount(base64) * (dialect === 'gemini' ? GEMINI_PDF_PAGE_TOKENS : PDF_PAGE_TOKENS);
}

/** Tokens of inline audio or video, bounded from its bytes. */
export function streamTokens(base64: string, kind: 'audio' | 'video'): number {
  return Math.ceil(base64Bytes(base64) / (kind === 'audio' ? AUDIO_BYTES_PER_TOKEN : VIDEO_BYTES_PER_TOKEN));
}

/** The base64 payload of a `data:` URL, or undefined for a remote URL. */
export function dataUrlPayload(url: unknown): string | undefined {
  if (typeof url !== 'string' || !url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  return comma < 0 ? undefined : url.slice(comma + 1);
}

/** The media type of a `data:` URL (`image/png`), or ''. */
export function dataUrlType(url: unknown): string {
  if (typeof url !== 'string' || !url.startsWith('data:')) return '';
  const end = url.search(/[;,]/);
  return end < 0 ? '' : url.slice(5, end);
}
