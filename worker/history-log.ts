import type { ProviderMessage } from '../src/index.ts';

/**
 * The append-only raw history of one session in the Durable Object's SQLite. Messages go in
 * chunks of consecutive messages (one chunk per append, split when large); a chunk's JSON is
 * stored in pieces, because one SQLite value may hold at most 2 MB.
 *
 * The session record's `length` is the commit point: rows past it are what a write left behind
 * before its record was saved, and are dropped on the next append.
 */
export const CHUNK_MESSAGE_CHARS = 256 * 1024;
/** ≤ 3 UTF-8 bytes per UTF-16 unit: 600,000 units stay under the 2 MB value limit. */
export const PIECE_CHARS = 600_000;

export class HistoryLog {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      'CREATE TABLE IF NOT EXISTS raw_history (first_index INTEGER NOT NULL, piece INTEGER NOT NULL, message_count INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (first_index, piece))',
    );
  }

  /** The first `length` messages, in order. */
  load(length: number): ProviderMessage[] {
    const messages: ProviderMessage[] = [];
    let text = '';
    let chunkStart = -1;
    const flush = () => {
      if (chunkStart >= 0) for (const message of JSON.parse(text) as ProviderMessage[]) messages.push(message);
      text = '';
    };
    for (const row of this.sql.exec<{ first_index: number; text: string }>(
      'SELECT first_index, text FROM raw_history WHERE first_index < ? ORDER BY first_index, piece',
      length,
    )) {
      if (row.first_index !== chunkStart) {
        flush();
        chunkStart = row.first_index;
      }
      text += row.text;
    }
    flush();
    if (messages.length < length)
      throw new Error(`raw history holds ${messages.length} messages, the session record ${length}`);
    messages.length = length;
    return messages;
  }

  /**
   * UTF-8 bytes of the JSON of the first `length` messages (each `JSON.stringify(message)`, as the
   * history digest reads them), counted in SQLite without reading the history back: a chunk's
   * text is its messages joined by commas in brackets.
   */
  bytes(length: number): number {
    const row = this.sql
      .exec<{ stored: number | null; framing: number | null }>(
        'SELECT (SELECT SUM(length(CAST(text AS BLOB))) FROM raw_history WHERE first_index < ?1) AS stored, (SELECT SUM(message_count + 1) FROM raw_history WHERE first_index < ?1 AND piece = 0) AS framing',
        length,
      )
      .one();
    return (row.stored ?? 0) - (row.framing ?? 0);
  }

  /** Writes `messages` as the history from `fromIndex` on, replacing anything left past it. */
  append(fromIndex: number, messages: readonly ProviderMessage[]): void {
    this.appendJson(
      fromIndex,
      messages.map((message) => JSON.stringify(message)),
    );
  }

  /** As `append`, with each message already written as JSON. */
  appendJson(fromIndex: number, messages: readonly string[]): void {
    this.sql.exec('DELETE FROM raw_history WHERE first_index >= ?', fromIndex);
    let start = 0;
    while (start < messages.length) {
      let end = start;
      let chars = 0;
      const parts: string[] = [];
      while (end < messages.length && (end === start || chars < CHUNK_MESSAGE_CHARS)) {
        const json = messages[end];
        parts.push(json);
        chars += json.length;
        end++;
      }
      this.writeChunk(fromIndex + start, end - start, `[${parts.join(',')}]`);
      start = end;
    }
  }

  clear(): void {
    this.sql.exec('DELETE FROM raw_history');
  }

  private writeChunk(firstIndex: number, count: number, text: string): void {
    let piece = 0;
    for (let offset = 0; offset < text.length; piece++) {
      let end = Math.min(text.length, offset + PIECE_CHARS);
      // never split a surrogate pair between two pieces
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      this.sql.exec(
        'INSERT INTO raw_history (first_index, piece, message_count, text) VALUES (?, ?, ?, ?)',
        firstIndex,
        piece,
        count,
        text.slice(offset, end),
      );
      offset = end;
    }
  }
}
