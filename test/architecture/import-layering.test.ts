/**
 * The import graph of `src/` keeps its shape: no cycles between files, no import that points up
 * the layers (docs/architecture.md), and Node built-ins only under `src/node/`. Every static import
 * counts, `import type` and `export … from` included: a type-only cycle still couples two files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { specifiersOf } from './module-specifiers.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

/**
 * Top to bottom, as docs/architecture.md draws them (the block between its layer markers). A file
 * may import its own folder or a folder on a lower layer, never one on its own layer or above.
 */
function documentedLayers(): string[][] {
  const architecture = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const block = /<!-- layers:start -->\n```text\n([\s\S]*?)```/.exec(architecture)?.[1] ?? '';
  return block
    .trim()
    .split('\n')
    .map((line) =>
      line
        .replace(/#.*$/, '')
        .trim()
        .split(/\s*,\s*|\s+/)
        .filter(Boolean)
        .map((unit) => unit.replace(/\/$/, '')),
    );
}
const LAYERS: readonly (readonly string[])[] = documentedLayers();

/** The folder that places a file in the layers: `src/fold/x.ts` → `fold`, `src/index.ts` → `index.ts`. */
const unitOf = (file: string): string => file.split('/')[0];

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const isBuiltin = (specifier: string) =>
  specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0]);

interface ImportEdge {
  /** Both relative to `src/`. */
  readonly from: string;
  readonly specifier: string;
  /** The `src/`-relative file a relative specifier names; null for a package or built-in. */
  readonly to: string | null;
}

/** The import edges of a set of sources keyed by their `src/`-relative path. */
function importEdges(sources: ReadonlyMap<string, string>): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const [from, source] of sources)
    for (const specifier of specifiersOf(from, source)) {
      const to = specifier.startsWith('.') ? join(dirname(from), specifier).split('\\').join('/') : null;
      edges.push({ from, specifier, to });
    }
  return edges;
}

/** Each cycle once, as the files around it: `a.ts → b.ts → a.ts`. */
function findCycles(edges: readonly ImportEdge[]): string[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) if (to !== null) next.set(from, [...(next.get(from) ?? []), to]);
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const cycles: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const target of next.get(file) ?? []) {
      if (state.get(target) === 'open') cycles.push([...path.slice(path.indexOf(target)), target].join(' → '));
      else if (!state.has(target)) visit(target);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...next.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

/** Imports that point to a folder on the same layer or above, and files in a folder no layer names. */
function layerViolations(edges: readonly ImportEdge[], layers: readonly (readonly string[])[] = LAYERS): string[] {
  const layerOf = new Map(layers.flatMap((units, depth) => units.map((unit) => [unit, depth] as const)));
  const problems = new Set<string>();
  for (const { from, specifier, to } of edges) {
    const source = unitOf(from);
    if (!layerOf.has(source)) problems.add(`${from}: folder ${source}/ is on no layer`);
    if (to === null) continue;
    const target = unitOf(to);
    if (target === source) continue;
    if (to.startsWith('..') || !layerOf.has(target))
      problems.add(`${from} imports ${specifier}: ${target} is on no layer`);
    else if (layerOf.get(target)! <= layerOf.get(source)!)
      problems.add(`${from} imports ${specifier}: ${target} is not below ${source}`);
  }
  return [...problems];
}

/** Node built-ins imported outside `src/node/`. */
function builtinViolations(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter(({ from, specifier }) => isBuiltin(specifier) && unitOf(from) !== 'node')
    .map(({ from, specifier }) => `${from} imports ${specifier}`);
}

function readSources(): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (directory: string): void => {
    for (const name of readdirSync(directory).sort()) {
      const path = join(directory, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(?:ts|tsx|mts|js|mjs)$/.test(name))
        sources.set(relative(SRC, path).split('\\').join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(SRC);
  return sources;
}

const planted = (files: Record<string, string>) => importEdges(new Map(Object.entries(files)));

describe('the checks catch what they are for', () => {
  it('reads every kind of static import, type-only ones included', () => {
    const source = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import './c.ts';",
      "export { d } from './d.ts';",
      "export type { E } from './e.ts';",
      "export * from './f.ts';",
      "import {\n  g,\n  type G,\n} from './g.ts';",
      "type H = import('./h.ts').H;",
      "const i = () => import('./i.ts');",
      "// import { no } from './comment.ts';",
      'const text = "import { no } from \'./string.ts\'";',
    ].join('\n');
    expect(specifiersOf('x.ts', source)).toEqual([
      './a.ts',
      './b.ts',
      './c.ts',
      './d.ts',
      './e.ts',
      './f.ts',
      './g.ts',
      './h.ts',
      './i.ts',
    ]);
  });

  it('finds a planted cycle, a type-only one too', () => {
    const edges = planted({
      'fold/a.ts': "import type { B } from './b.ts';",
      'fold/b.ts': "import { a } from './a.ts';",
      'fold/c.ts': "import { a } from './a.ts';",
    });
    expect(findCycles(edges)).toEqual(['fold/a.ts → fold/b.ts → fold/a.ts']);
  });

  it('finds a planted upward import, a sideways one and a folder on no layer', () => {
    const edges = planted({
      'freeze/state.ts': "import type { ResidentCard } from '../session/recall-lane.ts';",
      'text/hash.ts': "export { x } from '../messages/types.ts';",
      'glyphs/g.ts': "import { rail } from '../task-rail/types.ts';",
      'fold/ok.ts': "import { hash } from '../text/hash.ts'; import { encode } from 'gpt-tokenizer';",
      'stray/s.ts': "import { hash } from '../text/hash.ts';",
    });
    expect(layerViolations(edges).sort()).toEqual([
      'freeze/state.ts imports ../session/recall-lane.ts: session is not below freeze',
      'glyphs/g.ts imports ../task-rail/types.ts: task-rail is not below glyphs',
      'stray/s.ts: folder stray/ is on no layer',
      'text/hash.ts imports ../messages/types.ts: messages is not below text',
    ]);
  });

  it('finds a planted Node built-in outside src/node/', () => {
    const edges = planted({
      'fold/a.ts': "import { readFileSync } from 'node:fs';",
      'text/b.ts': "import { join } from 'path';",
      'node/c.ts': "import { writeFile } from 'node:fs/promises';",
    });
    expect(builtinViolations(edges)).toEqual(['fold/a.ts imports node:fs', 'text/b.ts imports path']);
  });
});

describe('src/ import graph', () => {
  const sources = readSources();
  const edges = importEdges(sources);

  it('reads the whole tree', () => {
    expect(sources.has('index.ts')).toBe(true);
    expect(sources.size).toBeGreaterThan(100);
    expect(edges.filter((edge) => edge.to !== null).length).toBeGreaterThan(300);
    // every relative import names a file that exists, or the graph would miss edges
    expect(
      edges
        .filter((edge) => edge.to !== null && !sources.has(edge.to))
        .map((edge) => `${edge.from} imports ${edge.specifier}`),
    ).toEqual([]);
  });

  it('has no cycle between files', () => {
    expect(findCycles(edges)).toEqual([]);
  });

  it('never imports up or across the layers', () => {
    expect(layerViolations(edges)).toEqual([]);
  });

  it('imports Node built-ins only under src/node/', () => {
    expect(builtinViolations(edges)).toEqual([]);
  });

  it('reads the layers docs/architecture.md documents, and every folder of src/ is on one', () => {
    expect(LAYERS.length).toBeGreaterThan(5);
    expect(LAYERS[0]).toEqual(['index.ts']);
    const placed = new Set(LAYERS.flat());
    expect([...new Set([...sources.keys()].map(unitOf))].filter((unit) => !placed.has(unit))).toEqual([]);
  });
});
