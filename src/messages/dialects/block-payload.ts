import { dataUrlPayload, dataUrlType, imageTokens, pdfTokens, streamTokens } from '../media-tokens.ts';
import type { Dialect } from '../types.ts';
import { FoldInputError } from '../fold-input-error.ts';
import { isRecord } from '../../text/is-record.ts';

/**
 * What a message carries besides its prose, for counting: text of attached documents and search
 * results (`attachments`, cut by a clip like prose), blocks warpfold does not know, serialized
 * (`opaque`: counted whole, never cut), and the estimated tokens of images, audio and video.
 */
export interface Payload {
  readonly attachments: string[];
  readonly opaque: string[];
  mediaTokens: number;
}

export const newPayload = (): Payload => ({ attachments: [], opaque: [], mediaTokens: 0 });

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Text blocks of a content array (document `content` sources, search results); images in them count as images. */
function nestedText(content: unknown, dialect: Dialect, payload: Payload): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const pieces: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') pieces.push(block);
    else if (isRecord(block) && typeof block.text === 'string') pieces.push(block.text);
    else if (isRecord(block)) readBlockPayload(block, dialect, payload);
  }
  return pieces.join('\n');
}

function mediaKind(type: string): 'image' | 'audio' | 'video' | 'other' {
  return type.startsWith('image/')
    ? 'image'
    : type.startsWith('audio/')
      ? 'audio'
      : type.startsWith('video/')
        ? 'video'
        : 'other';
}

/**
 * Accounts for one non-prose block of an OpenAI or Anthropic content array, or one Gemini part:
 * documents and search results add their text, images, audio and video their estimated tokens,
 * and any other kind its serialized size. Text blocks and tool blocks are read by the caller.
 */
export function readBlockPayload(block: Record<string, unknown>, dialect: Dialect, payload: Payload): void {
  switch (block.type) {
    case 'image_url': {
      const image = isRecord(block.image_url) ? block.image_url : { url: block.image_url };
      payload.mediaTokens += imageTokens(dialect, dataUrlPayload(image.url), image.detail);
      return;
    }
    case 'input_audio': {
      const audio = isRecord(block.input_audio) ? block.input_audio : {};
      payload.mediaTokens += streamTokens(text(audio.data), 'audio');
      return;
    }
    case 'image': {
      const source = isRecord(block.source) ? block.source : {};
      payload.mediaTokens += imageTokens(dialect, source.type === 'base64' ? text(source.data) : undefined);
      return;
    }
    case 'document': {
      const source = isRecord(block.source) ? block.source : {};
      const parts = [text(block.title), text(block.context)];
      if (source.type === 'text') parts.push(text(source.data));
      else if (source.type === 'content') parts.push(nestedText(source.content, dialect, payload));
      else if (source.type === 'base64' && source.media_type === 'application/pdf')
        payload.mediaTokens += pdfTokens(dialect, text(source.data));
      else payload.opaque.push(JSON.stringify(source)); // a reference (URL, file id): its serialized size is the conservative count
      payload.attachments.push(parts.filter(Boolean).join('\n'));
      return;
    }
    case 'search_result':
      payload.attachments.push(
        [text(block.title), text(block.source), nestedText(block.content, dialect, payload)].filter(Boolean).join('\n'),
      );
      return;
  }
  // Gemini parts are keyed by kind rather than typed
  if (isRecord(block.inlineData)) {
    const data = text(block.inlineData.data);
    const kind = mediaKind(text(block.inlineData.mimeType));
    if (kind === 'image') payload.mediaTokens += imageTokens(dialect, data);
    else if (kind === 'audio' || kind === 'video') payload.mediaTokens += streamTokens(data, kind);
    else if (text(block.inlineData.mimeType) === 'application/pdf') payload.mediaTokens += pdfTokens(dialect, data);
    else payload.opaque.push(JSON.stringify(block));
    return;
  }
  if (isRecord(block.fileData) && mediaKind(text(block.fileData.mimeType)) === 'image') {
    payload.mediaTokens += imageTokens(dialect, undefined);
    return;
  }
  if (isRecord(block.executableCode)) return void payload.attachments.push(text(block.executableCode.code));
  if (isRecord(block.codeExecutionResult)) return void payload.attachments.push(text(block.codeExecutionResult.output));
  // an OpenAI file part: a data URL of the file counts by size, like any other unknown payload
  if (block.type === 'file' && isRecord(block.file) && mediaKind(dataUrlType(block.file.file_data)) === 'image') {
    payload.mediaTokens += imageTokens(dialect, dataUrlPayload(block.file.file_data));
    return;
  }
  if (block.type === 'file' && isRecord(block.file) && dataUrlType(block.file.file_data) === 'application/pdf') {
    payload.mediaTokens += pdfTokens(dialect, dataUrlPayload(block.file.file_data) ?? '');
    return;
  }
  payload.opaque.push(JSON.stringify(block));
}

/** Text of an OpenAI chat or Anthropic content value; non-text blocks become short placeholders and are counted in `payload`. */
export function contentText(
  content: unknown,
  index: number,
  where: string,
  dialect: Dialect,
  payload: Payload,
): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    throw new FoldInputError(index, `${where} must be a string, an array of blocks or null, got ${typeof content}`);
  const pieces: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') pieces.push(block);
    else if (isRecord(block) && typeof block.text === 'string') pieces.push(block.text);
    else if (isRecord(block) && typeof block.type === 'string') {
      pieces.push(`[${block.type}]`);
      readBlockPayload(block, dialect, payload);
    } else throw new FoldInputError(index, `${where} holds a block that is neither text nor a typed block`);
  }
  return pieces.join('\n');
}
