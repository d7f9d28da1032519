/**
 * The dialects warpfold reads and writes: the three raw chat APIs (OpenAI `tool_calls`,
 * Anthropic blocks, Gemini `parts`), OpenAI Responses input items and the AI SDK's `ModelMessage`.
 */
export const DIALECTS = ['openai', 'anthropic', 'gemini', 'openai-responses', 'ai-sdk'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** A provider-shaped message as the host keeps it. warpfold reads it and never changes it. */
export type ProviderMessage = Record<string, unknown>;

export type CanonicalRole = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCall {
  /** Provider id, or a synthetic `#<message>.<n>` when the dialect has none. */
  readonly id: string;
  readonly name: string;
  /** Parsed arguments; a string when they were not valid JSON. */
  readonly input: unknown;
}

export interface ToolResult {
  readonly callId: string;
  /** Name of the call this result answers, when it could be paired. */
  readonly name: string;
  /**
   * `<message index>.<position>` of the call this result answers, as the reader paired it over
   * the whole history. Absent on results built by hand; `pairToolCalls` then pairs by id and name.
   */
  readonly callRef?: string;
  readonly text: string;
  readonly isError: boolean;
}

/** One message read into dialect-free form. */
export interface CanonicalMessage {
  readonly index: number;
  readonly role: CanonicalRole;
  /** The role string as the provider spells it (`model`, `developer`, …). */
  readonly sourceRole: string;
  /** Visible prose (user, assistant or system text). */
  readonly text: string;
  /** Model reasoning recorded apart from the prose (thinking blocks, reasoning_content). */
  readonly reasoning: string;
  readonly toolCalls: readonly ToolCall[];
  readonly toolResults: readonly ToolResult[];
  /** Real user text: where a new turn starts. */
  readonly isTurnBoundary: boolean;
  /** Text of attached documents, search results and code parts: counted, and cut by a clip like prose. */
  readonly attachments?: string;
  /** Blocks of kinds warpfold does not read, serialized: counted whole by their size, never cut. */
  readonly opaque?: string;
  /**
   * Tokens of payloads that are not text (images, audio, video), estimated per provider
   * (`src/messages/media-tokens.ts`) and added to the counted plain rendering.
   */
  readonly mediaTokens?: number;
}

/** A span of messages that begins at real user text (or at the start of the history). */
export interface Turn {
  readonly startIndex: number;
  /** Exclusive. */
  readonly endIndex: number;
}
