/**
 * The folders around `src/` keep their boundaries: tests, the inspector, the worker, e2e and the
 * scripts never import the benchmarks (what they share lives in `src/baselines/` or `test/helpers/`);
 * the inspector and the worker reach the library only through its public entries (the files
 * package.json `exports` names), as a user of the package would; and `bench/` and `scripts/` do
 * not import each other. Every static import counts, `import type` and `export … from` included.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { specifiersOf } from './module-specifiers.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Folders that must not import `bench/`. */
const NO_BENCH = ['test', 'e2e', 'demo', 'worker', 'scripts', 'examples'];
/** Folders that may import from `src/` only its public entries. */
const PUBLIC_ONLY = ['demo', 'worker'];
/** Pairs of folders that must not import one another. */
const APART: ReadonlyArray<readonly [string, string]> = [['bench', 'scripts']];

interface Edge {
  /** Both relative to the repository root, with forward slashes. */
  readonly from: string;
  readonly specifier: string;
  /** The file a relative specifier names; null for a package or built-in. */
  readonly to: string | null;
}

const topFolder = (path: string): string => path.split('/')[0];

function edgesOf(sources: ReadonlyMap<string, string>): Edge[] {
  return [...sources].flatMap(([from, source]) =>
    // a query (`?raw`, `?url`) asks the bundler for the file in another form; the file is what counts
    specifiersOf(from, source).map((specifier) => ({
      from,
      specifier,
      to: specifier.startsWith('.')
        ? posix.normalize(posix.join(posix.dirname(from), specifier.replace(/\?.*$/, '')))
        : null,
    })),
  );
}

/** Imports from the `NO_BENCH` folders into `bench/`. */
function benchImports(edges: readonly Edge[]): string[] {
  return edges
    .filter(({ from, to }) => NO_BENCH.includes(topFolder(from)) && to !== null && topFolder(to) === 'bench')
    .map(({ from, specifier }) => `${from} imports ${specifier}`);
}

/** Imports from the `PUBLIC_ONLY` folders into `src/` that name a file other than a public entry. */
function privateImports(edges: readonly Edge[], publicEntries: ReadonlySet<string>): string[] {
  return edges
    .filter(
      ({ from, to }) =>
        PUBLIC_ONLY.includes(topFolder(from)) && to !== null && topFolder(to) === 'src' && !publicEntries.has(to),
    )
    .map(({ from, specifier }) => `${from} imports ${specifier}: not a public entry`);
}

/** Imports between the folders of each `APART` pair, either way. */
function crossImports(edges: readonly Edge[]): string[] {
  return edges
    .filter(
      ({ from, to }) =>
        to !== null &&
        APART.some(
          ([first, second]) =>
            (topFolder(from) === first && topFolder(to) === second) ||
            (topFolder(from) === second && topFolder(to) === first),
        ),
    )
    .map(({ from, specifier }) => `${from} imports ${specifier}`);
}

/** The source file behind each entry of package.json `exports`: `./dist/types/fold/index.d.ts` → `src/fold/index.ts`. */
function publicEntries(): Set<string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types: string }>;
  };
  const entries = new Set<string>();
  for (const target of Object.values(manifest.exports)) {
    if (typeof target === 'string') continue;
    entries.add(target.types.replace(/^\.\/dist\/types\//, 'src/').replace(/\.d\.ts$/, '.ts'));
  }
  return entries;
}

function readSources(folders: readonly string[]): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (directory: string): void => {
    for (const name of readdirSync(directory).sort()) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const path = join(directory, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(?:ts|tsx|mts|js|mjs)$/.test(name))
        sources.set(relative(ROOT, path).split('\\').join('/'), readFileSync(path, 'utf8'));
    }
  };
  for (const folder of folders) walk(join(ROOT, folder));
  return sources;
}

const planted = (files: Record<string, string>) => edgesOf(new Map(Object.entries(files)));

describe('the boundary checks catch what they are for', () => {
  it('finds a planted bench import from a test, the inspector, the worker and a script, type-only too', () => {
    const edges = planted({
      'test/a.test.ts': "import { runReplay } from '../bench/replay.ts';",
      'demo/src/b.ts': "import type { X } from '../../bench/strategies/x.ts';",
      'worker/c.ts': "export { y } from '../bench/y.ts';",
      'scripts/d.ts': "const z = await import('../bench/z.ts');",
      'bench/test/e.test.ts': "import { runBench } from '../run.ts';",
      'test/f.test.ts': "import { rawStrategy } from '../src/baselines/index.ts';",
    });
    expect(benchImports(edges)).toEqual([
      'test/a.test.ts imports ../bench/replay.ts',
      'demo/src/b.ts imports ../../bench/strategies/x.ts',
      'worker/c.ts imports ../bench/y.ts',
      'scripts/d.ts imports ../bench/z.ts',
    ]);
  });

  it('finds a planted deep import into src/ from the inspector and the worker, and lets tests through', () => {
    const edges = planted({
      'worker/a.ts': "import { MINIMUM_PRESSURE_CEILING_TOKENS } from '../src/budget/resolve-context-budget.ts';",
      'worker/b.ts': "import { MINIMUM_PRESSURE_CEILING_TOKENS } from '../src/budget/index.ts';",
      'demo/src/c.ts': "import { PRICE_TABLE } from '../../src/tokens/price-table.ts';",
      'demo/src/d.ts': "import { FoldSession } from '../../src/index.ts';",
      'test/e.test.ts': "import { planFold } from '../src/session/plan-fold.ts';",
    });
    expect(privateImports(edges, new Set(['src/index.ts', 'src/budget/index.ts', 'src/tokens/index.ts']))).toEqual([
      'worker/a.ts imports ../src/budget/resolve-context-budget.ts: not a public entry',
      'demo/src/c.ts imports ../../src/tokens/price-table.ts: not a public entry',
    ]);
  });

  it('finds a planted import between bench/ and scripts/, either way', () => {
    const edges = planted({
      'bench/a.ts': "import { startWranglerDev } from '../scripts/wrangler-dev-process.ts';",
      'scripts/b.ts': "import { OUTAGE_SCRIPT } from '../bench/scenario/outage-script.ts';",
      'scripts/c.ts': "import { REPO_ROOT } from '../test/helpers/fixtures.ts';",
      'bench/d.ts': "import { noiseSource } from '../test/helpers/workloads/seeded-random.ts';",
    });
    expect(crossImports(edges)).toEqual([
      'bench/a.ts imports ../scripts/wrangler-dev-process.ts',
      'scripts/b.ts imports ../bench/scenario/outage-script.ts',
    ]);
  });

  it('reads the public entries from package.json', () => {
    const entries = publicEntries();
    expect(entries).toContain('src/index.ts');
    expect(entries).toContain('src/baselines/index.ts');
    expect(entries).toContain('src/storage/durable-object.ts');
    expect(entries).not.toContain('src/budget/resolve-context-budget.ts');
  });
});

describe('repository boundaries', () => {
  const sources = readSources(['bench', ...NO_BENCH]);
  const edges = edgesOf(sources);

  it('reads every folder around src/', () => {
    for (const folder of ['bench', ...NO_BENCH])
      expect(
        [...sources.keys()].some((file) => topFolder(file) === folder),
        folder,
      ).toBe(true);
    // every relative import names a file that exists, or an edge could be missed
    // (generated declarations, such as wrangler's worker-configuration.d.ts, name files without an extension)
    const exists = (path: string) =>
      ['', '.ts', '.js', '/index.ts'].some((suffix) =>
        statSync(join(ROOT, path + suffix), { throwIfNoEntry: false })?.isFile(),
      );
    const missing = edges
      .filter(({ to }) => to !== null && !exists(to))
      .map(({ from, specifier }) => `${from} imports ${specifier}`);
    expect(missing).toEqual([]);
  });

  it('no test, e2e, inspector, worker, script or example file imports bench/', () => {
    expect(benchImports(edges)).toEqual([]);
  });

  it('the inspector and the worker import from src/ only its public entries', () => {
    expect(privateImports(edges, publicEntries())).toEqual([]);
  });

  it('bench/ and scripts/ do not import each other', () => {
    expect(crossImports(edges)).toEqual([]);
  });
});
