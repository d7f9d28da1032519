import { readAnthropicUsage } from '../providers/anthropic/read-anthropic-usage.ts';
import { readGeminiUsage } from '../providers/gemini/read-gemini-usage.ts';
import { readOpenAIUsage } from '../providers/openai/read-openai-usage.ts';
import { isRecord } from '../text/is-record.ts';
import type { RecordedUsage } from '../transcripts/types.ts';
import type { ApiKind } from './route-request.ts';

/** The provider's own token counts for one call: fresh input, cache reads and writes, output. */
export type ProviderUsage = RecordedUsage;

/** A JSON (not streamed) answer is kept in a copy up to this size to read its usage at the end. */
const MAX_JSON_COPY_CHARS = 8 * 1024 * 1024;

/** Usage fields of one parsed event or body, merged into what earlier events said. */
function mergeUsage(api: ApiKind, event: unknown, usage: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(event)) return usage;
  if (api === 'anthropic') {
    const found = isRecord(event.usage)
      ? event.usage
      : isRecord(event.message) && isRecord(event.message.usage)
        ? event.message.usage
        : undefined;
    // message_delta repeats output tokens, and input counts only when it has them
    return found === undefined ? usage : { ...usage, ...found };
  }
  if (api === 'gemini') return isRecord(event.usageMetadata) ? { ...usage, ...event.usageMetadata } : usage;
  const holder = isRecord(event.response) ? event.response : event;
  return isRecord(holder.usage) ? { ...holder.usage } : usage;
}

function readUsage(api: ApiKind, usage: Record<string, unknown>): ProviderUsage | undefined {
  if (Object.keys(usage).length === 0) return undefined;
  try {
    if (api === 'anthropic') return readAnthropicUsage({ usage });
    if (api === 'gemini') return readGeminiUsage({ usageMetadata: usage });
    return readOpenAIUsage({ usage });
  } catch {
    return undefined;
  }
}

/** Where a usage line may be: cheap to test before parsing a whole event. */
const USAGE_HINT = /usage/i;

/**
 * Passes a response body through chunk by chunk, as it arrives, and reads the provider's usage on
 * the side: from SSE `data:` lines (Anthropic message_start / message_delta, OpenAI
 * response.completed and chat chunks, Gemini usageMetadata) or, for a JSON answer, from a copy
 * read at the end. `onDone` gets the usage (undefined when none came) once the body ends, fails
 * or is cancelled; `aborted` says the client went away.
 */
export function tapUsage(
  body: ReadableStream<Uint8Array>,
  api: ApiKind,
  streaming: boolean,
  onDone: (usage: ProviderUsage | undefined, aborted: boolean) => void,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let pending = '';
  let copy = '';
  let usage: Record<string, unknown> = {};
  let finished = false;
  const readLine = (line: string) => {
    if (!line.startsWith('data:') || !USAGE_HINT.test(line)) return;
    try {
      usage = mergeUsage(api, JSON.parse(line.slice(5)), usage);
    } catch {
      // a line that is not JSON carries no usage
    }
  };
  const finish = (aborted: boolean) => {
    if (finished) return;
    finished = true;
    if (!streaming && copy !== '' && copy.length <= MAX_JSON_COPY_CHARS) {
      try {
        const parsed: unknown = JSON.parse(copy);
        // a Gemini stream without alt=sse is one JSON array of chunks
        for (const event of Array.isArray(parsed) ? parsed : [parsed]) usage = mergeUsage(api, event, usage);
      } catch {
        // not JSON: no usage
      }
    }
    onDone(readUsage(api, usage), aborted);
  };
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          if (streaming) for (const line of (pending + decoder.decode()).split('\n')) readLine(line.trimEnd());
          finish(false);
          controller.close();
          return;
        }
        controller.enqueue(value);
        const text = decoder.decode(value, { stream: true });
        if (!streaming) {
          if (copy.length <= MAX_JSON_COPY_CHARS) copy += text;
          return;
        }
        const lines = (pending + text).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) readLine(line.trimEnd());
      } catch (error) {
        finish(true);
        controller.error(error);
      }
    },
    cancel(reason) {
      finish(true);
      return reader.cancel(reason);
    },
  });
}
