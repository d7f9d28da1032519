import { ApiError } from './api-error.ts';

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

export function requireJsonContentType(contentType: string | undefined): void {
  const mediaType = (contentType ?? '').split(';')[0].trim();
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    throw new ApiError(
      'unsupported-media-type',
      `send the body as application/json, not ${mediaType === '' ? 'no Content-Type' : mediaType}`,
    );
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError('payload-too-large', `the body is larger than ${maxBytes} bytes`, { maxBytes });
}

/**
 * Past the limit, a streamed body is read on and thrown away up to this many bytes before the 413
 * goes out, so that the client, still sending, gets to read it: a body left unread, even while a
 * `waitUntil` drains it after the answer, ends in a connection reset that loses the answer.
 * Beyond this, the stream is cancelled.
 */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, already: number): Promise<void> {
  let total = already;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    total += value.byteLength;
    if (total > DRAIN_LIMIT_BYTES) {
      await reader.cancel().catch(() => undefined);
      return;
    }
  }
}

/**
 * Reads a request body as UTF-8 text, refusing it as soon as it passes `maxBytes`: a declared
 * Content-Length over the limit is refused before a byte is read, and a streamed body stops being
 * kept at the chunk that crosses it (the rest is drained, not held), so an oversized upload is
 * never held whole.
 */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<string> {
  const bytes = await readBytesWithin(request, maxBytes);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ApiError('invalid-request', 'the body is not valid UTF-8', { field: '(body)' });
  }
}

/** As `readBodyWithin`, the bytes as they came (a compressed body stays compressed). */
export async function readBytesWithin(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get('Content-Length');
  if (declared !== null && Number(declared) > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(maxBytes);
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      chunks.length = 0;
      await discardRest(reader, total).catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
