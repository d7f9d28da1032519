import type { ProviderMessage } from '../../messages/types.ts';
import { ProviderInputError } from '../provider-error.ts';

/** An explicit context cache (`cachedContents/…`) holding the first `messageCount` contents of the view. */
export interface GeminiCachedContentRef {
  readonly name: string;
  readonly messageCount: number;
}

export interface GeminiRequestOptions {
  /** The view `FoldSession.prepare` returned (Gemini dialect: `contents`). */
  readonly contents: readonly ProviderMessage[];
  readonly sealedBoundary: number | null;
  readonly systemInstruction?: string;
  readonly tools?: readonly Record<string, unknown>[];
  readonly toolConfig?: Record<string, unknown>;
  /** When given, the request names the cache and sends only the contents after it. */
  readonly cachedContent?: GeminiCachedContentRef;
  /** Other request fields (`generationConfig`, `safetySettings`, …). */
  readonly params?: Readonly<Record<string, unknown>>;
}

function cleanContents(contents: readonly ProviderMessage[]): Record<string, unknown>[] {
  return contents.map((content, index) => {
    if (content === null || typeof content !== 'object' || (content.role !== 'user' && content.role !== 'model'))
      throw new ProviderInputError(
        'gemini',
        `contents[${index}].role`,
        `expected 'user' or 'model', got ${JSON.stringify((content as { role?: unknown } | null)?.role)}`,
      );
    if (!Array.isArray(content.parts))
      throw new ProviderInputError('gemini', `contents[${index}].parts`, 'expected an array of parts');
    return { role: content.role, parts: content.parts };
  });
}

function checkParams(params: Readonly<Record<string, unknown>> | undefined): void {
  for (const key of ['contents', 'systemInstruction', 'tools', 'toolConfig', 'cachedContent'])
    if (params !== undefined && key in params)
      throw new ProviderInputError('gemini', `params.${key}`, `pass ${key} through its own option, not in params`);
}

/**
 * A `generateContent` body. Without a cache: system instruction, tools, then the folded
 * contents. With an explicit `cachedContent`: the cache name and only the contents after the
 * cached ones (the API refuses a system instruction or tools next to a cache; they belong in it).
 * The cache may hold only sealed contents: a cache reaching past `sealedBoundary` could disagree
 * with the view and is refused.
 */
export function prepareGeminiRequest(options: GeminiRequestOptions): { request: Record<string, unknown> } {
  if (!Array.isArray(options.contents))
    throw new ProviderInputError('gemini', 'contents', 'expected an array of contents');
  checkParams(options.params);
  const contents = cleanContents(options.contents);
  const request: Record<string, unknown> = { ...options.params };
  if (options.cachedContent !== undefined) {
    const { name, messageCount } = options.cachedContent;
    if (typeof name !== 'string' || !name.startsWith('cachedContents/'))
      throw new ProviderInputError(
        'gemini',
        'cachedContent.name',
        `expected a 'cachedContents/…' name, got ${JSON.stringify(name)}`,
      );
    const sealedCount = options.sealedBoundary === null ? 0 : options.sealedBoundary + 1;
    if (!Number.isInteger(messageCount) || messageCount < 0 || messageCount > sealedCount)
      throw new ProviderInputError(
        'gemini',
        'cachedContent.messageCount',
        `the cache may hold only sealed contents: expected 0…${sealedCount}, got ${String(messageCount)}`,
      );
    if (options.systemInstruction !== undefined || options.tools !== undefined || options.toolConfig !== undefined)
      throw new ProviderInputError(
        'gemini',
        'cachedContent',
        'systemInstruction, tools and toolConfig go into the cached content, not next to it',
      );
    request.cachedContent = name;
    request.contents = contents.slice(messageCount);
    return { request };
  }
  if (options.systemInstruction !== undefined)
    request.systemInstruction = { parts: [{ text: options.systemInstruction }] };
  if (options.tools !== undefined && options.tools.length > 0)
    request.tools = options.tools.map((tool) => ({ ...tool }));
  if (options.toolConfig !== undefined) request.toolConfig = options.toolConfig;
  request.contents = contents;
  return { request };
}

/**
 * The body for `cachedContents.create` that caches the view's sealed prefix (with the system
 * instruction and tools), and the `messageCount` to pass back as `cachedContent`. Null when
 * nothing is sealed yet.
 */
export function geminiSealedCacheBody(options: {
  readonly model: string;
  readonly contents: readonly ProviderMessage[];
  readonly sealedBoundary: number | null;
  readonly systemInstruction?: string;
  readonly tools?: readonly Record<string, unknown>[];
  readonly ttlSeconds?: number;
}): { body: Record<string, unknown>; messageCount: number } | null {
  if (options.sealedBoundary === null) return null;
  const messageCount = options.sealedBoundary + 1;
  const body: Record<string, unknown> = {
    model: options.model.startsWith('models/') ? options.model : `models/${options.model}`,
    contents: cleanContents(options.contents.slice(0, messageCount)),
  };
  if (options.systemInstruction !== undefined)
    body.systemInstruction = { parts: [{ text: options.systemInstruction }] };
  if (options.tools !== undefined && options.tools.length > 0) body.tools = options.tools;
  body.ttl = `${options.ttlSeconds ?? 300}s`;
  return { body, messageCount };
}
