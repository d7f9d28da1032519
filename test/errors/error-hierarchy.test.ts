/**
 * One error hierarchy: every error class warpfold exports derives from `WarpfoldError`, carries
 * its own name through minification, and is recognised by `isInstance` across bundled copies and
 * realms; every `throw new X(` in `src/` throws a member of it, never a bare Error, TypeError or
 * RangeError.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { FoldInputError, FoldOptionsError, WarpfoldError } from '../../src/errors.ts';
import { FoldStateError } from '../../src/freeze/fold-state-error.ts';
import { StorageError, StorageInputError } from '../../src/storage/storage-errors.ts';
import { FoldSession } from '../../src/index.ts';
import { SAVED_SESSION_FORMAT, SAVED_SESSION_VERSION } from '../../src/freeze/index.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

type ErrorClass = (abstract new (...args: never[]) => Error) & { readonly errorName?: string };

const isErrorClass = (value: unknown): value is ErrorClass =>
  typeof value === 'function' && value.prototype instanceof Error;

/** Every source file of `src/`, relative to it. */
function sourceFiles(directory = SRC): string[] {
  return readdirSync(directory)
    .sort()
    .flatMap((name) => {
      const path = join(directory, name);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [relative(SRC, path).split('\\').join('/')] : [];
    });
}

/** The public entries, as the library build lists them. */
function publicEntries(): string[] {
  const config = readFileSync(join(ROOT, 'vite.config.ts'), 'utf8');
  return [...config.matchAll(/entry\('(src\/[^']+)'\)/g)].map((match) => match[1]);
}

/** Error classes exported by the given modules, by export name. */
async function errorClassesOf(files: readonly string[]): Promise<Map<string, ErrorClass>> {
  const found = new Map<string, ErrorClass>();
  for (const file of files) {
    const module: Record<string, unknown> = await import(pathToFileURL(join(ROOT, file)).href);
    for (const [name, value] of Object.entries(module)) if (isErrorClass(value)) found.set(name, value);
  }
  return found;
}

/**
 * Bare throws in files another change rewrites (the storage implementations and the memory
 * episode store it removes). The test fails once they are gone, so this list cannot outlive them.
 */
describe('every exported error class derives from WarpfoldError', () => {
  it('across every public entry, each with its own name and marker', async () => {
    const entries = publicEntries();
    expect(entries.length).toBeGreaterThan(20);
    const classes = await errorClassesOf(entries);
    // the classes the entries had before the hierarchy, and the root
    expect([...classes.keys()].sort()).toEqual(
      expect.arrayContaining([
        'BudgetInputError',
        'ClaudeCliError',
        'CorruptRecordError',
        'FoldInputError',
        'FoldOptionsError',
        'FoldStateError',
        'IndexedDbUnavailableError',
        'KeyTooLongError',
        'ProviderInputError',
        'SessionConflictError',
        'StorageError',
        'StorageInputError',
        'StorageQuotaError',
        'TaskRailOperationError',
        'TranscriptFormatError',
        'UpgradeBlockedError',
        'ValueTooLargeError',
        'WarpfoldError',
      ]),
    );
    for (const [name, type] of classes) {
      expect(
        type === WarpfoldError || type.prototype instanceof WarpfoldError,
        `${name} derives from WarpfoldError`,
      ).toBe(true);
      expect(Object.hasOwn(type, 'errorName') && type.errorName, `${name} declares its own errorName`).toBe(name);
    }
  });
});

describe('every throw in src/ throws a member of the hierarchy', () => {
  const files = sourceFiles();
  const thrown = files.flatMap((file) =>
    [...readFileSync(join(SRC, file), 'utf8').matchAll(/throw new (\w+)\(/g)].map((match) => ({
      file,
      name: match[1],
    })),
  );

  it('reads the whole tree', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(thrown.length).toBeGreaterThan(150);
  });

  it('no bare Error, TypeError or RangeError', () => {
    const bare = thrown.filter(({ file, name }) => /^(?:Type|Range)?Error$/.test(name));
    expect(bare.map(({ file, name }) => `${file}: throw new ${name}(`)).toEqual([]);
  });

  it('each thrown class is exported from its module and derives from WarpfoldError', async () => {
    const classes = await errorClassesOf(files.map((file) => `src/${file}`));
    const outside = thrown.filter(({ name }) => {
      const type = classes.get(name);
      return type === undefined || !(type === WarpfoldError || type.prototype instanceof WarpfoldError);
    });
    expect(outside.map(({ file, name }) => `${file}: throw new ${name}(`)).toEqual([]);
  });
});

describe('the root: code, field, cause, name and message', () => {
  it('carries them as given', () => {
    const cause = new Error('disk full');
    const error = new WarpfoldError('storage-failed', 'could not write', { field: 'state', cause });
    expect([error.code, error.field, error.cause, error.message, error.name]).toEqual([
      'storage-failed',
      'state',
      cause,
      'could not write',
      'WarpfoldError',
    ]);
    expect('cause' in new WarpfoldError('invalid-input', 'x')).toBe(false);
  });

  it('each class names itself and maps its old properties onto the canonical ones', () => {
    const options = new FoldOptionsError(
      'foldConfig.bandRatio',
      'foldConfig.bandRatio must be a number from 0 to 1, got 2',
    );
    expect([options.name, options.code, options.field, options.option, options.messageIndex]).toEqual([
      'FoldOptionsError',
      'invalid-option',
      'foldConfig.bandRatio',
      'foldConfig.bandRatio',
      -1,
    ]);
    const input = new FoldInputError(3, 'unknown role "robot"');
    expect([input.name, input.code, input.field, input.message]).toEqual([
      'FoldInputError',
      'invalid-input',
      'history[3]',
      'message 3: unknown role "robot"',
    ]);
    const state = new FoldStateError('integrity', 'digest', 'edited');
    expect([state.name, state.code, state.problem, state.field]).toEqual([
      'FoldStateError',
      'integrity',
      'integrity',
      'digest',
    ]);
    const storage = new StorageInputError('options.expectedVersion', 'must be a non-negative integer');
    expect([storage.name, storage.code, storage.field]).toEqual([
      'StorageInputError',
      'invalid-input',
      'options.expectedVersion',
    ]);
  });

  it('an error thrown by the engine is one: a bad option and a bad saved state', () => {
    const errors: unknown[] = [];
    for (const run of [
      () => new FoldSession({ foldConfig: { bandRatio: 2 } }),
      () =>
        new FoldSession({ restoredState: { format: SAVED_SESSION_FORMAT, version: SAVED_SESSION_VERSION } as never }),
    ]) {
      try {
        run();
      } catch (error) {
        errors.push(error);
      }
    }
    expect(
      errors.map(
        (error) => WarpfoldError.isInstance(error) && [(error as WarpfoldError).code, (error as WarpfoldError).field],
      ),
    ).toEqual([
      ['invalid-option', 'foldConfig.bandRatio'],
      ['invalid-field', 'digest'],
    ]);
    // the kit's own error is the cause, for a host that wants the chain
    expect(WarpfoldError.isInstance((errors[0] as Error).cause)).toBe(true);
  });
});

describe('isInstance', () => {
  it('holds for the class and its subclasses, not for siblings or strangers', () => {
    const state = new FoldStateError('unreadable', '$', 'not JSON');
    expect([
      WarpfoldError.isInstance(state),
      FoldStateError.isInstance(state),
      FoldInputError.isInstance(state),
      StorageError.isInstance(state),
    ]).toEqual([true, true, false, false]);
    const options = new FoldOptionsError('now', 'now must be a function, got 12');
    expect([
      WarpfoldError.isInstance(options),
      FoldInputError.isInstance(options),
      FoldOptionsError.isInstance(options),
    ]).toEqual([true, true, true]);
    expect(FoldOptionsError.isInstance(new FoldInputError(1, 'x'))).toBe(false);
    for (const stranger of [
      new Error('x'),
      new TypeError('x'),
      { name: 'FoldStateError', code: 'integrity' },
      null,
      undefined,
      'FoldStateError',
      42,
    ])
      expect(WarpfoldError.isInstance(stranger), String(stranger)).toBe(false);
  });

  it('holds across two bundled copies of warpfold, where instanceof does not', async () => {
    const copy: typeof import('../../src/errors.ts') = await import(
      /* @vite-ignore */ `${pathToFileURL(join(SRC, 'errors.ts')).href}?copy`
    );
    expect(copy.FoldOptionsError).not.toBe(FoldOptionsError);
    const fromCopy = new copy.FoldOptionsError('now', 'now must be a function');
    expect(fromCopy).not.toBeInstanceOf(FoldOptionsError);
    expect([
      WarpfoldError.isInstance(fromCopy),
      FoldInputError.isInstance(fromCopy),
      FoldOptionsError.isInstance(fromCopy),
      FoldStateError.isInstance(fromCopy),
    ]).toEqual([true, true, true, false]);
    expect(copy.WarpfoldError.isInstance(new FoldStateError('integrity', 'digest', 'edited'))).toBe(true);
  });

  it('holds across realms: an error made in another VM context', () => {
    const source = ts.transpileModule(readFileSync(join(SRC, 'errors.ts'), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const made = runInNewContext(
      `const exports = {}; ${source}; new exports.FoldOptionsError('now', 'now must be a function')`,
    ) as unknown;
    expect(made instanceof Error).toBe(false);
    expect([
      WarpfoldError.isInstance(made),
      FoldOptionsError.isInstance(made),
      FoldStateError.isInstance(made),
    ]).toEqual([true, true, false]);
  });
});
