/**
 * One gateway core, two hosts: the edge worker hosts `src/gateway/` (the same core `warpfold
 * proxy` runs on Node) and holds no copy of it. The worker imports the core's entry for the
 * gateway and its folder, defines none of the core's functions, speaks none of the provider
 * wire details the core reads (usage events, cache marks, cache keys), and shares no run of
 * lines with any core file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { specifiersOf } from './module-specifiers.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const read = (path: string) => readFileSync(path, 'utf8');
const workerFiles = sourceFiles(join(ROOT, 'worker')).map((path) => ({ path: relative(ROOT, path), text: read(path) }));
const coreFiles = sourceFiles(join(ROOT, 'src', 'gateway')).map((path) => ({
  path: relative(ROOT, path),
  text: read(path),
}));

/** Functions and classes the core defines: a worker file defining one of these names is a copy. */
function definedNames(text: string): string[] {
  return [...text.matchAll(/(?:function|class)\s+([A-Za-z_$][\w$]*)/g)].map((match) => match[1]);
}

/** Code lines, trimmed, without comments, blanks and bare punctuation: what a copy would share. */
function codeLines(text: string): string[] {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length > 12 && !line.startsWith('//') && !line.startsWith('*') && !line.startsWith('/*'))
      .filter((line) => !line.startsWith('import ') && !line.startsWith('} from ') && !line.startsWith('export {'))
      // names listed in an import or export
      .filter((line) => !/^(type )?[\w$]+( as [\w$]+)?,$/.test(line))
  );
}

/** Runs of `size` consecutive code lines that appear in both texts. */
function sharedRuns(left: string, right: string, size: number): string[] {
  const rightLines = codeLines(right);
  const runs = new Set<string>();
  for (let index = 0; index + size <= rightLines.length; index++)
    runs.add(rightLines.slice(index, index + size).join('\n'));
  const leftLines = codeLines(left);
  const found: string[] = [];
  for (let index = 0; index + size <= leftLines.length; index++) {
    const run = leftLines.slice(index, index + size).join('\n');
    if (runs.has(run)) found.push(run);
  }
  return found;
}

describe('one gateway core, hosted by the worker', () => {
  it('the worker imports the gateway core through its entry: createGateway for the routes, createSessionFolder in the session object', () => {
    const importers = (name: string) =>
      workerFiles
        .filter(
          (file) =>
            specifiersOf(file.path, file.text).some((specifier) => specifier.endsWith('src/gateway/index.ts')) &&
            new RegExp(`\\b${name}\\b`).test(file.text),
        )
        .map((file) => file.path);
    expect(importers('createGateway')).toContain('worker/routes/gateway-routes.ts');
    expect(importers('createSessionFolder')).toContain('worker/gateway-session-object.ts');
    const deep = workerFiles.flatMap((file) =>
      specifiersOf(file.path, file.text)
        .filter((specifier) => /src\/gateway\/(?!index\.ts$)/.test(specifier))
        .map((specifier) => `${file.path} → ${specifier}`),
    );
    expect(deep).toEqual([]);
  });

  it('the worker defines none of the core functions', () => {
    const coreNames = new Set(coreFiles.flatMap((file) => definedNames(file.text)));
    expect(coreNames.has('foldCall')).toBe(true);
    const copies = workerFiles.flatMap((file) =>
      definedNames(file.text)
        .filter((name) => coreNames.has(name))
        .map((name) => `${file.path} defines ${name}`),
    );
    expect(copies).toEqual([]);
  });

  it('the worker files that host the gateway read none of the wire details the core owns: usage events, cache marks, cache keys, session headers', () => {
    // the /v1 API has its own Anthropic route and schema (worker/schemas.ts); the gateway's hosts are the files that import the core
    const hosts = workerFiles.filter((file) =>
      specifiersOf(file.path, file.text).some((specifier) => specifier.endsWith('src/gateway/index.ts')),
    );
    expect(hosts.length).toBeGreaterThanOrEqual(3);
    const wireDetails = [
      'message_start',
      'usageMetadata',
      'cache_read_input_tokens',
      'cache_control',
      'prompt_cache_key',
      'x-claude-code-session-id',
      'metadata.user_id',
      'text/event-stream',
      'DecompressionStream',
    ];
    const found = hosts.flatMap((file) =>
      wireDetails.filter((detail) => file.text.includes(detail)).map((detail) => `${file.path}: ${detail}`),
    );
    expect(found).toEqual([]);
  });

  it('no worker file shares a run of four code lines with a core file', () => {
    const shared = workerFiles.flatMap((worker) =>
      coreFiles.flatMap((core) =>
        sharedRuns(worker.text, core.text, 4).map((run) => `${worker.path} ≈ ${core.path}:\n${run}`),
      ),
    );
    expect(shared).toEqual([]);
  });

  it('finds a planted copy: a core function pasted into a worker file', () => {
    const core = coreFiles.find((file) => file.path.endsWith('usage-tap.ts'));
    expect(core).toBeDefined();
    const planted = core!.text.split('\n').slice(40, 110).join('\n');
    expect(sharedRuns(planted, core!.text, 4).length).toBeGreaterThan(0);
    expect(definedNames(planted).length).toBeGreaterThan(0);
  });
});
