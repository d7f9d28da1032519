import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createJsonLinesCollector } from '../../transcripts/json-lines.ts';
import { readTranscript, readTranscriptLines } from '../../transcripts/read-transcript.ts';
import type { TranscriptReadResult } from '../../transcripts/types.ts';

/** A JSONL transcript is read as a stream of lines, so a 100 MB file is never one string. */
function isJsonLines(path: string): boolean {
  return /\.jsonl$/i.test(path);
}

async function readJsonLinesFile(path: string): Promise<TranscriptReadResult> {
  const collector = createJsonLinesCollector();
  // Opened read-only: the transcript is never written.
  let line = 0;
  let pending = '';
  // Split on "\n" only, as parseJsonLines does, so line numbers agree with the in-memory reader.
  for await (const chunk of createReadStream(path, { encoding: 'utf8', flags: 'r' }) as AsyncIterable<string>) {
    let start = 0;
    let end = chunk.indexOf('\n');
    while (end !== -1) {
      collector.add(pending + chunk.slice(start, end), ++line);
      pending = '';
      start = end + 1;
      end = chunk.indexOf('\n', start);
    }
    pending += chunk.slice(start);
  }
  collector.add(pending, ++line);
  return readTranscriptLines(collector.result(), { fileName: basename(path) });
}

/**
 * Reads one transcript file of any format warpfold knows. Throws a `TranscriptFormatError` when
 * nothing in it is readable, and the file system's error when it cannot be opened.
 */
export async function readSessionFile(path: string): Promise<TranscriptReadResult> {
  if (isJsonLines(path)) return readJsonLinesFile(path);
  return readTranscript(await readFile(path, { encoding: 'utf8', flag: 'r' }), { fileName: basename(path) });
}
