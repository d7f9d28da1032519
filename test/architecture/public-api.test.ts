/**
 * The public surface, pinned. The root entry holds what every host needs, at most 30 names, listed
 * here so that adding or dropping one is a choice; every other public name lives in exactly one
 * subpath of package.json `exports`. Values are read from the loaded module, types from the type
 * checker's view of each entry's source.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const VALUES = [
  'DEFAULT_FOLD_CONFIG',
  'FoldInputError',
  'FoldOptionsError',
  'FoldSession',
  'FoldStateError',
  'ProviderInputError',
  'WarpfoldError',
];

const TYPES = [
  'Dialect',
  'EpochReason',
  'FoldConfig',
  'FoldConfigOverrides',
  'FoldOutcome',
  'FoldPrepareOptions',
  'FoldReceipt',
  'FoldSessionOptions',
  'FoldStats',
  'ProviderMessage',
  'SavedFoldSession',
  'TokenCounter',
  'WarpfoldErrorCode',
];

/** Each subpath of package.json `exports` and the source file its types come from. */
function packageEntries(): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types: string }>;
  };
  const entries = new Map<string, string>();
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue;
    entries.set(subpath, join(ROOT, target.types.replace('./dist/types/', 'src/').replace(/\.d\.ts$/, '.ts')));
  }
  return entries;
}

/** Every name each entry exports, types included, as the compiler sees it. */
function exportedNames(files: readonly string[]): Map<string, string[]> {
  const program = ts.createProgram([...files], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  return new Map(
    files.map((file) => {
      const module = checker.getSymbolAtLocation(program.getSourceFile(file)!);
      return [file, module ? checker.getExportsOfModule(module).map((symbol) => symbol.name) : []];
    }),
  );
}

const sorted = (names: readonly string[]) => [...names].sort();
const entries = packageEntries();
const names = exportedNames([...entries.values()]);

describe('the public surface of warpfold', () => {
  it('maps every subpath to a source entry', () => {
    expect(entries.get('.')).toBe(join(ROOT, 'src/index.ts'));
    expect([...entries.values()].filter((file) => !existsSync(file))).toEqual([]);
  });

  it('keeps the root to the chosen values', () => {
    expect(sorted(Object.keys(root))).toEqual(sorted(VALUES));
  });

  it('keeps the root to the chosen values and types, at most 30 names', () => {
    const rootNames = names.get(join(ROOT, 'src/index.ts'))!;
    expect(sorted(rootNames)).toEqual(sorted([...VALUES, ...TYPES]));
    expect(rootNames.length).toBeLessThanOrEqual(30);
  });

  it('exports each name from exactly one entry', () => {
    const homes = new Map<string, string[]>();
    for (const [subpath, file] of entries)
      for (const name of names.get(file)!) homes.set(name, [...(homes.get(name) ?? []), subpath]);
    const repeated = [...homes]
      .filter(([, subpaths]) => subpaths.length > 1)
      .map(([name, subpaths]) => `${name}: ${subpaths.join(', ')}`);
    expect(repeated).toEqual([]);
  });
});
