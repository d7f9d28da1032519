import type { ApiKind } from './route-request.ts';

/** Where each API keeps the history the engine folds, and what else the provider bills as input. */
export interface RequestShape {
  /** The field holding the conversation: the only one the gateway folds. */
  readonly historyField: 'messages' | 'input' | 'contents';
  /** Fields the provider bills as input but the gateway never changes: system prompt, tools. */
  readonly overheadFields: readonly string[];
  /** The engine name `warpfold/budget` knows the API's models under. */
  readonly engine: string;
  /** Whether the API takes a `prompt_cache_key` the gateway may add when the client sent none. */
  readonly promptCacheKey: boolean;
}

const SHAPES: Readonly<Record<ApiKind, RequestShape>> = {
  anthropic: { historyField: 'messages', overheadFields: ['system', 'tools'], engine: 'claude', promptCacheKey: false },
  'openai-responses': {
    historyField: 'input',
    overheadFields: ['instructions', 'tools'],
    engine: 'openai',
    promptCacheKey: true,
  },
  'openai-chat': {
    historyField: 'messages',
    overheadFields: ['tools', 'functions'],
    engine: 'openai',
    promptCacheKey: true,
  },
  gemini: {
    historyField: 'contents',
    overheadFields: ['systemInstruction', 'system_instruction', 'tools', 'toolConfig'],
    engine: 'gemini',
    promptCacheKey: false,
  },
};

export function requestShape(api: ApiKind): RequestShape {
  return SHAPES[api];
}
