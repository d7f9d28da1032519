/** A request body as text, or why it cannot be read (then it is forwarded as it came). */
export type BodyReading =
  | { readonly ok: true; readonly text: string; readonly encoding: string }
  | { readonly ok: false; readonly reason: string };

/** The format names DecompressionStream takes (spelled the same in DOM and workerd types). */
type DecompressionFormat = ConstructorParameters<typeof DecompressionStream>[0];

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

async function decompress(bytes: Uint8Array, format: string): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream(format as DecompressionFormat));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The runtime's own decompressors, probed rather than assumed (zstd is missing from most). */
function canDecompress(format: string): boolean {
  try {
    new DecompressionStream(format as DecompressionFormat);
    return true;
  } catch {
    return false;
  }
}

/**
 * Decodes the body by its `content-encoding` (identity, gzip, deflate, and zstd or br where the
 * runtime can), then as UTF-8. A body past `maxBytes` is not read into text at all.
 */
export async function readRequestBody(
  bytes: Uint8Array,
  contentEncoding: string | null,
  maxBytes: number,
): Promise<BodyReading> {
  const encodings = (contentEncoding ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '' && part !== 'identity');
  let data = bytes;
  if (data.byteLength > maxBytes) return { ok: false, reason: 'body-too-large' };
  for (const encoding of encodings.reverse()) {
    const format = encoding === 'x-gzip' ? 'gzip' : encoding;
    if (!['gzip', 'deflate', 'zstd', 'br'].includes(format) || !canDecompress(format))
      return { ok: false, reason: `unsupported-encoding-${encoding}` };
    try {
      data = await decompress(data, format);
    } catch {
      return { ok: false, reason: `undecodable-${encoding}` };
    }
    if (data.byteLength > maxBytes) return { ok: false, reason: 'body-too-large' };
  }
  try {
    return { ok: true, text: decoder.decode(data), encoding: encodings.join(',') || 'identity' };
  } catch {
    return { ok: false, reason: 'body-not-utf8' };
  }
}
