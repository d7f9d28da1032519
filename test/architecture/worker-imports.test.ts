/**
 * The edge worker is a client of the library like any other: it imports `src/` only through the
 * public entries the build publishes (vite.config.ts `lib.entry`), never a file behind them. And
 * its documented dev command reaches for no network.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WORKER = join(ROOT, 'worker');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `src/...` paths the build publishes as entries. */
function publicEntries(): Set<string> {
  const config = readFileSync(join(ROOT, 'vite.config.ts'), 'utf8');
  return new Set([...config.matchAll(/entry\('(src\/[^']+)'\)/g)].map((match) => match[1]));
}

describe('the edge worker', () => {
  it('imports the library only through its public entries', () => {
    const entries = publicEntries();
    expect(entries).toContain('src/index.ts');
    expect(entries).toContain('src/budget/index.ts');
    const deep: string[] = [];
    for (const file of sourceFiles(WORKER)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/(?:import|export)[^'"]*?from\s+'([^']+)'/g)) {
        const target = relative(ROOT, resolve(dirname(file), match[1]));
        if (target.startsWith('src/') && !entries.has(target)) deep.push(`${relative(ROOT, file)} → ${target}`);
      }
    }
    expect(deep).toEqual([]);
  });

  it('runs `npm run worker:dev` without fetching Request.cf or sending metrics', () => {
    const script = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
      .scripts['worker:dev'];
    expect(script).toMatch(/\bCLOUDFLARE_CF_FETCH_ENABLED=false\b/);
    expect(script).toMatch(/\bWRANGLER_SEND_METRICS=false\b/);
    expect(script).toMatch(/wrangler dev$/);
  });
});
