import type { ProviderMessage } from '../../messages/types.ts';
import { isRecord } from '../../text/is-record.ts';
import { parseJsonLines } from '../../transcripts/json-lines.ts';
import { mergeAdjacentRoles } from '../../transcripts/merge-adjacent.ts';
import { readGeminiCliChat } from '../../transcripts/read-gemini-cli.ts';
import { TranscriptFormatError } from '../../transcripts/transcript-format-error.ts';
import type { RecordedUsage } from '../../transcripts/types.ts';
import { ProviderInputError } from '../provider-error.ts';
import { isoTime, stableId } from '../stable-id.ts';

type Part = Record<string, unknown>;

/** A Gemini CLI message record (`user` or `gemini`) as the chat recording stores it. */
export type GeminiCliMessageRecord = Record<string, unknown> & {
  readonly id: string;
  readonly type: 'user' | 'gemini';
  readonly timestamp: string;
};

function partsOf(content: ProviderMessage, index: number): Part[] {
  if (
    content === null ||
    typeof content !== 'object' ||
    (content.role !== 'user' && content.role !== 'model') ||
    !Array.isArray(content.parts)
  ) {
    throw new ProviderInputError(
      'gemini-cli',
      `contents[${index}]`,
      "expected { role: 'user' | 'model', parts: [...] }",
    );
  }
  return content.parts as Part[];
}

/**
 * Gemini contents → the CLI's message records: a model turn becomes a `gemini` record whose
 * `functionCall` parts are tool calls, each carrying the matching `functionResponse` of the user
 * turn after it as its result; other user parts become `user` records.
 */
export function geminiCliMessageRecords(
  contents: readonly ProviderMessage[],
  options: { readonly now: () => number; readonly model?: string; readonly sessionId?: string },
): GeminiCliMessageRecord[] {
  const rows = mergeAdjacentRoles(
    contents.map((content, index) => ({ role: content.role, parts: partsOf(content, index) })),
    'parts',
  );
  const timestamp = isoTime(options.now);
  const records: GeminiCliMessageRecord[] = [];
  const idOf = (index: number, kind: string) => stableId(options.sessionId ?? '', index, kind);
  for (let index = 0; index < rows.length; index++) {
    const parts = rows[index].parts as Part[];
    if (rows[index].role === 'model') {
      const calls = parts.filter((part) => isRecord(part.functionCall));
      const next = rows[index + 1]?.role === 'user' ? (rows[index + 1].parts as Part[]) : [];
      const responses = next.filter((part) => isRecord(part.functionResponse));
      const used = new Set<Part>();
      const toolCalls = calls.map((part, callIndex) => {
        const call = part.functionCall as Record<string, unknown>;
        const id = typeof call.id === 'string' ? call.id : `${String(call.name)}-${idOf(index, `call${callIndex}`)}`;
        const response =
          responses.find(
            (candidate) => !used.has(candidate) && (candidate.functionResponse as Record<string, unknown>).id === id,
          ) ??
          responses.find(
            (candidate) =>
              !used.has(candidate) && (candidate.functionResponse as Record<string, unknown>).name === call.name,
          );
        if (response !== undefined) used.add(response);
        const isError =
          response !== undefined &&
          isRecord((response.functionResponse as Record<string, unknown>).response) &&
          'error' in ((response.functionResponse as Record<string, unknown>).response as object);
        return {
          id,
          name: call.name,
          args: isRecord(call.args) ? call.args : {},
          ...(response === undefined ? {} : { result: [response] }),
          status: response === undefined ? 'cancelled' : isError ? 'error' : 'success',
          timestamp,
        };
      });
      const text = parts.filter((part) => !isRecord(part.functionCall));
      records.push({
        id: idOf(index, 'gemini'),
        timestamp,
        type: 'gemini',
        content: text,
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
        ...(options.model === undefined ? {} : { model: options.model }),
      });
      if (responses.length > 0) {
        const rest = next.filter((part) => !used.has(part));
        if (rest.length > 0) records.push({ id: idOf(index + 1, 'user'), timestamp, type: 'user', content: rest });
        index++;
      }
    } else {
      records.push({ id: idOf(index, 'user'), timestamp, type: 'user', content: parts });
    }
  }
  return records;
}

/**
 * The chat file rewritten to hold `contents` (a folded view): for the JSONL layout, the original
 * metadata header line, verbatim, then one `$set` record with `messages` and `lastUpdated`; for
 * the older JSON layout, the same object with `messages` and `lastUpdated` replaced.
 */
export function rewriteGeminiCliChat(options: {
  readonly original: string;
  readonly contents: readonly ProviderMessage[];
  readonly now: () => number;
  readonly model?: string;
}): string {
  const read = readGeminiCliChat(options.original);
  const messages = geminiCliMessageRecords(options.contents, {
    now: options.now,
    model: options.model ?? read.metadata.model,
    sessionId: read.metadata.sessionId,
  });
  const lastUpdated = isoTime(options.now);
  if (read.format === 'gemini-cli-json') {
    const whole = JSON.parse(options.original) as Record<string, unknown>;
    return `${JSON.stringify({ ...whole, lastUpdated, messages }, null, 2)}\n`;
  }
  const header = options.original.split('\n').find((line) => {
    const parsed = parseJsonLines(line).records[0]?.value;
    return (
      isRecord(parsed) &&
      typeof parsed.sessionId === 'string' &&
      typeof parsed.projectHash === 'string' &&
      !('id' in parsed)
    );
  });
  if (header === undefined)
    throw new TranscriptFormatError(
      'gemini-cli-jsonl',
      0,
      'no metadata header line (sessionId and projectHash) to keep',
    );
  return `${header.replace(/\r$/, '')}\n${JSON.stringify({ $set: { messages, lastUpdated } })}\n`;
}

/** The latest token counts the chat file records (the last `gemini` record's `tokens`), or null. */
export function latestGeminiCliUsage(text: string): RecordedUsage | null {
  return readGeminiCliChat(text).metadata.lastUsage ?? null;
}
