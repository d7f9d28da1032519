/**
 * Portable core (DESIGN.md §1.7): every core entry bundles for the browser and for a neutral
 * runtime with no Node built-in reachable, and no core source touches `process.`, `Buffer` or
 * `require(`. Entries: `src/index.ts` and each `src/<area>/index.ts` except `src/node/` (Node-only
 * by design) and `src/tokens/` (its own subpath over gpt-tokenizer).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');
const NOT_CORE = new Set(['node', 'tokens']);

const ENTRIES = [
  'src/index.ts',
  ...readdirSync(SRC)
    .filter(
      (name) =>
        !NOT_CORE.has(name) && statSync(join(SRC, name)).isDirectory() && existsSync(join(SRC, name, 'index.ts')),
    )
    .sort()
    .map((name) => `src/${name}/index.ts`),
  // Provider helpers and CLI packs: one subpath per provider under src/providers/.
  ...readdirSync(join(SRC, 'providers'))
    .filter((name) => existsSync(join(SRC, 'providers', name, 'index.ts')))
    .sort()
    .map((name) => `src/providers/${name}/index.ts`),
];

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const isBuiltin = (specifier: string) =>
  specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0]);

interface BuiltinImport {
  readonly specifier: string;
  readonly importer: string;
}

/** Marks Node built-ins external and records who imports them, so the test can name the culprit. */
function builtinRecorder(found: BuiltinImport[]): Plugin {
  return {
    name: 'record-node-builtins',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, (args) => {
        if (!isBuiltin(args.path)) return undefined;
        found.push({ specifier: args.path, importer: relative(ROOT, args.importer) });
        return { path: args.path, external: true };
      });
    },
  };
}

describe('core entries bundle without Node built-ins', () => {
  it('finds the core entries, and the recorder catches a planted built-in import', async () => {
    expect(ENTRIES).toContain('src/index.ts');
    expect(ENTRIES.length).toBeGreaterThan(3);
    const found: BuiltinImport[] = [];
    await build({
      stdin: {
        contents: "import 'node:fs'; import { join } from 'path'; export const x = join('a');",
        resolveDir: SRC,
        sourcefile: 'planted.ts',
      },
      bundle: true,
      write: false,
      platform: 'neutral',
      logLevel: 'silent',
      plugins: [builtinRecorder(found)],
    });
    expect(found.map((item) => item.specifier).sort()).toEqual(['node:fs', 'path']);
  });

  describe.each(['browser', 'neutral'] as const)('platform %s', (platform) => {
    it.each(ENTRIES)('%s', async (entry) => {
      const found: BuiltinImport[] = [];
      const result = await build({
        entryPoints: [join(ROOT, entry)],
        bundle: true,
        write: false,
        format: 'esm',
        platform,
        // neutral has no default main fields; resolve packages the way a bundler for workers does
        ...(platform === 'neutral'
          ? { mainFields: ['module', 'main'], conditions: ['worker', 'import', 'default'] }
          : {}),
        target: 'es2022',
        metafile: true,
        logLevel: 'silent',
        plugins: [builtinRecorder(found)],
      });
      expect(result.errors).toEqual([]);
      const externals = Object.entries(result.metafile.inputs).flatMap(([file, input]) =>
        input.imports.filter((item) => item.external || isBuiltin(item.path)).map((item) => `${file} → ${item.path}`),
      );
      expect(found, `${entry} reaches Node built-ins`).toEqual([]);
      expect(externals, `${entry} leaves imports external`).toEqual([]);
      expect(result.outputFiles[0].text.length).toBeGreaterThan(0);
    });
  });
});

/** All TypeScript files under a directory. */
function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return NOT_CORE.has(entry.name) && directory === SRC ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Uses of `process.…`, `Buffer` and `require(…)` in code (comments and strings do not count). */
function nodeGlobals(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node) =>
    `${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'process')
      found.push(`${at(node)} process.${node.name.text}`);
    else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require')
      found.push(`${at(node)} require(…)`);
    else if (
      ts.isIdentifier(node) &&
      node.text === 'Buffer' &&
      !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node)
    )
      found.push(`${at(node)} Buffer`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('core sources touch no Node globals', () => {
  const files = sourceFiles(SRC);

  it('scans the core sources (and the checker sees a planted use)', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.some((file) => file.includes(`${join('src', 'node')}`))).toBe(false);
    const planted = nodeGlobals(
      join(SRC, 'planted.ts'),
      'const a = process.env.X;\nconst b = Buffer.from("x");\nconst c = require("fs");\n// process.exit() in a comment\nconst d = "Buffer in a string";',
    );
    expect(planted).toEqual(['src/planted.ts:1 process.env', 'src/planted.ts:2 Buffer', 'src/planted.ts:3 require(…)']);
  });

  it('no process., Buffer or require( in any core file', () => {
    expect(files.flatMap((file) => nodeGlobals(file))).toEqual([]);
  });
});
