// Resident memory of the workerd process that runs the user worker under `wrangler dev` (the one
// started with an inspector address), read from /proc. Linux only; null elsewhere.
import { readdir, readFile } from 'node:fs/promises';

export async function workerdResidentBytes(processGroup: number): Promise<number | null> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = (await readFile(`/proc/${entry}/stat`, 'utf8')).split(') ')[1].split(' ');
      if (Number(stat[2]) !== processGroup) continue;
      const command = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0');
      if (!command[0].endsWith('/workerd') || !command.some((argument) => argument.startsWith('--inspector-addr')))
        continue;
      const status = await readFile(`/proc/${entry}/status`, 'utf8');
      const match = /VmRSS:\s+(\d+) kB/.exec(status);
      return match ? Number(match[1]) * 1024 : null;
    } catch {
      // the process went away while we read it
    }
  }
  return null;
}
