import { aiSdk } from './ai-sdk.ts';
import { anthropic } from './anthropic.ts';
import type { DialectCodec } from './dialect-reading.ts';
import { gemini } from './gemini.ts';
import { openAiChat } from './openai-chat.ts';
import { openAiResponses } from './openai-responses.ts';
import type { Dialect } from '../types.ts';

/** Each dialect's one home: its reading, its synthetic messages and its clipping. */
export const DIALECT_CODECS: Readonly<Record<Dialect, DialectCodec>> = Object.freeze({
  openai: openAiChat,
  anthropic,
  gemini,
  'openai-responses': openAiResponses,
  'ai-sdk': aiSdk,
});

export { detectDialect, readDialect } from './detect-dialect.ts';
export type { Clip, DialectCodec, DialectReading } from './dialect-reading.ts';
