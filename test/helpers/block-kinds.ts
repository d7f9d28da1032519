/**
 * Every non-prose block kind each dialect allows, for the tests of issue 14 finding 2: images
 * (inline with a real header, or by URL), audio, files, documents (text, content and PDF sources),
 * search results, tool results with content arrays, Gemini inline data, file data and code parts,
 * and a block kind warpfold does not know. `withBlockKinds` decorates a generated history.
 */
import type { Dialect, ProviderMessage } from './dialects.ts';

/** Base64 of a PNG whose header says `width` × `height` (the pixel data is padding, never decoded). */
export function pngBase64(width: number, height: number, paddingBytes = 64): string {
  const bytes = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];
  for (const value of [width, height])
    bytes.push((value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255);
  bytes.push(8, 6, 0, 0, 0, 0, 0, 0, 0);
  for (let i = 0; i < paddingBytes; i++) bytes.push((i * 37) & 255);
  return btoa(String.fromCharCode(...bytes));
}

const filler = (seed: number, words: number) =>
  Array.from({ length: words }, (_, n) => `clause${(seed * 13 + n * 7) % 211}`).join(' ');
const base64Noise = (bytes: number) =>
  btoa(Array.from({ length: bytes }, (_, n) => String.fromCharCode((n * 131 + 7) & 255)).join(''));

/** The extra blocks one user message gets, by `seed`. */
export function extraBlocks(dialect: Dialect, seed: number): Record<string, unknown>[] {
  const kind = seed % 4;
  if (dialect === 'openai')
    return [
      {
        type: 'image_url',
        image_url: {
          url: `data:image/png;base64,${pngBase64(400 + 300 * kind, 300 + 200 * kind)}`,
          detail: kind === 1 ? 'low' : 'high',
        },
      },
      ...(kind >= 2 ? [{ type: 'image_url', image_url: { url: 'https://example.com/chart.png' } }] : []),
      ...(kind === 3 ? [{ type: 'input_audio', input_audio: { data: base64Noise(4_000), format: 'wav' } }] : []),
      ...(kind === 2
        ? [
            {
              type: 'file',
              file: { filename: 'spec.pdf', file_data: `data:application/pdf;base64,${base64Noise(1_500)}` },
            },
          ]
        : []),
    ];
  if (dialect === 'anthropic')
    return [
      {
        type: 'image',
        source: { type: 'base64', media_type: 'image/png', data: pngBase64(500 + 400 * kind, 400 + 300 * kind) },
      },
      {
        type: 'document',
        source: { type: 'text', media_type: 'text/plain', data: filler(seed, 300 + 900 * kind) },
        title: `notes-${seed}.txt`,
      },
      ...(kind >= 1
        ? [
            {
              type: 'search_result',
              source: `https://docs.example.com/${seed}`,
              title: 'Result',
              content: [{ type: 'text', text: filler(seed + 1, 200) }],
            },
          ]
        : []),
      ...(kind >= 2
        ? [{ type: 'document', source: { type: 'content', content: [{ type: 'text', text: filler(seed + 2, 150) }] } }]
        : []),
      ...(kind === 3
        ? [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: base64Noise(1_200) } }]
        : []),
    ];
  return [
    { inlineData: { mimeType: 'image/png', data: pngBase64(300 + 500 * kind, 200 + 600 * kind) } },
    ...(kind >= 1 ? [{ inlineData: { mimeType: 'audio/wav', data: base64Noise(3_000) } }] : []),
    ...(kind >= 2 ? [{ fileData: { mimeType: 'image/jpeg', fileUri: 'gs://bucket/photo.jpg' } }] : []),
    ...(kind === 3
      ? [
          { executableCode: { language: 'PYTHON', code: `print(${JSON.stringify(filler(seed, 80))})` } },
          { codeExecutionResult: { outcome: 'OUTCOME_OK', output: filler(seed + 3, 200) } },
        ]
      : []),
  ];
}

/**
 * The history with extra blocks on every `every`-th user instruction and, for Anthropic, tool
 * results as content arrays (text plus an image or a document). Roles, order and pairing stay.
 */
export function withBlockKinds(history: readonly ProviderMessage[], dialect: Dialect, every = 2): ProviderMessage[] {
  let instructions = 0;
  return history.map((message, index) => {
    if (
      dialect === 'anthropic' &&
      message.role === 'user' &&
      Array.isArray(message.content) &&
      message.content.some((block: any) => block?.type === 'tool_result')
    )
      return {
        ...message,
        content: message.content.map((block: any, n: number) =>
          block?.type === 'tool_result' && typeof block.content === 'string' && (index + n) % 3 === 0
            ? {
                ...block,
                content: [
                  { type: 'text', text: block.content },
                  (index + n) % 2
                    ? { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngBase64(800, 600) } }
                    : {
                        type: 'document',
                        source: { type: 'text', media_type: 'text/plain', data: filler(index, 400) },
                      },
                ],
              }
            : block,
        ),
      };
    const isInstruction =
      message.role === 'user' &&
      (typeof message.content === 'string' ||
        (Array.isArray(message.content) && message.content.every((block: any) => block?.type === 'text')) ||
        (Array.isArray(message.parts) && message.parts.every((part: any) => typeof part?.text === 'string')));
    if (!isInstruction || instructions++ % every !== 0) return message;
    const extra = extraBlocks(dialect, index);
    if (dialect === 'gemini') return { ...message, parts: [...(message.parts as unknown[]), ...extra] };
    const text =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as unknown[]);
    return { ...message, content: [...text, ...extra] };
  });
}
