import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import type { GatewayLedger, LedgerLine } from '../../gateway/ledger.ts';

/** The ledger as `ledger.jsonl`: one JSON line appended per call, read back whole for the sessions endpoint. */
export function fileLedger(path: string): GatewayLedger {
  let queue: Promise<unknown> = fs.mkdir(dirname(path), { recursive: true });
  return {
    append(line) {
      const text = `${JSON.stringify(line)}\n`;
      const written = queue.then(() => fs.appendFile(path, text, { mode: 0o600 }));
      queue = written.catch(() => undefined);
      return written;
    },
    async lines(session) {
      await queue;
      let text: string;
      try {
        text = await fs.readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const lines: LedgerLine[] = [];
      for (const row of text.split('\n')) {
        if (row.trim() === '') continue;
        try {
          const line = JSON.parse(row) as LedgerLine;
          if (session === undefined || line.session === session) lines.push(line);
        } catch {
          // a line cut by a kill is skipped
        }
      }
      return lines;
    },
  };
}
