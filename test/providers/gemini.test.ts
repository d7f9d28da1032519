import { describe, expect, it } from 'vitest';
import { geminiSealedCacheBody, prepareGeminiRequest, readGeminiUsage } from '../../src/providers/gemini/index.ts';
import { ProviderInputError } from '../../src/index.ts';

const contents = [
  { role: 'user', parts: [{ text: 'list files' }] },
  { role: 'user', parts: [{ text: '[warpfold fold · messages 2–9]' }] },
  { role: 'model', parts: [{ text: 'Noted.' }], internal: true },
  { role: 'user', parts: [{ text: 'next' }] },
];

describe('prepareGeminiRequest', () => {
  it('without a cache: system instruction, tools, then the contents as { role, parts }', () => {
    const tools = [{ functionDeclarations: [{ name: 'ls', parameters: { type: 'OBJECT' } }] }];
    const { request } = prepareGeminiRequest({
      contents,
      sealedBoundary: 2,
      systemInstruction: 'Be careful.',
      tools,
      params: { generationConfig: { temperature: 0 } },
    });
    expect(request).toEqual({
      generationConfig: { temperature: 0 },
      systemInstruction: { parts: [{ text: 'Be careful.' }] },
      tools,
      contents: [contents[0], contents[1], { role: 'model', parts: [{ text: 'Noted.' }] }, contents[3]],
    });
  });

  it('with an explicit cache: the cache name and only the contents after it', () => {
    const cache = geminiSealedCacheBody({
      model: 'gemini-2.5-flash',
      contents,
      sealedBoundary: 2,
      systemInstruction: 'Be careful.',
      ttlSeconds: 600,
    });
    expect(cache).toEqual({
      messageCount: 3,
      body: {
        model: 'models/gemini-2.5-flash',
        contents: [contents[0], contents[1], { role: 'model', parts: [{ text: 'Noted.' }] }],
        systemInstruction: { parts: [{ text: 'Be careful.' }] },
        ttl: '600s',
      },
    });
    const { request } = prepareGeminiRequest({
      contents,
      sealedBoundary: 2,
      cachedContent: { name: 'cachedContents/abc123', messageCount: cache!.messageCount },
    });
    expect(request).toEqual({ cachedContent: 'cachedContents/abc123', contents: [contents[3]] });
    expect(geminiSealedCacheBody({ model: 'm', contents, sealedBoundary: null })).toBeNull();
  });

  it('refuses a cache that reaches past the sealed prefix, or instructions next to a cache', () => {
    expect(() =>
      prepareGeminiRequest({
        contents,
        sealedBoundary: 1,
        cachedContent: { name: 'cachedContents/a', messageCount: 3 },
      }),
    ).toThrow(/gemini: cachedContent.messageCount: the cache may hold only sealed contents: expected 0…2, got 3/);
    expect(() =>
      prepareGeminiRequest({
        contents,
        sealedBoundary: 2,
        systemInstruction: 'x',
        cachedContent: { name: 'cachedContents/a', messageCount: 1 },
      }),
    ).toThrow(ProviderInputError);
    expect(() =>
      prepareGeminiRequest({ contents: [{ role: 'assistant', content: 'x' }], sealedBoundary: null }),
    ).toThrow(/contents\[0\]\.role/);
  });
});

describe('readGeminiUsage', () => {
  it('reads usageMetadata with cached content (shape from the Gemini API context-caching docs)', () => {
    const response = {
      candidates: [{ content: { role: 'model', parts: [{ text: 'Done.' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: 696219,
        candidatesTokenCount: 214,
        totalTokenCount: 696433,
        cachedContentTokenCount: 696190,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: 696219 }],
        cacheTokensDetails: [{ modality: 'TEXT', tokenCount: 696190 }],
        thoughtsTokenCount: 0,
      },
      modelVersion: 'gemini-2.5-flash',
    };
    expect(readGeminiUsage(response)).toEqual({
      inputTokens: 29,
      cacheReadTokens: 696190,
      cacheWriteTokens: 0,
      outputTokens: 214,
      measuredInputTokens: 696219,
      thoughtsTokens: 0,
      toolUsePromptTokens: 0,
    });
  });
  it('throws a typed error without usageMetadata', () => {
    expect(() => readGeminiUsage({ candidates: [] })).toThrow(/gemini: response.usageMetadata/);
  });
});
