/**
 * The package as a stranger gets it: a copy of the repository's files (no dist/, as a fresh clone)
 * is packed with `npm pack`, which builds dist/ through `prepare`. The tarball must pass publint
 * and Are The Types Wrong (ESM-only profile: the package ships no CommonJS), and a fresh project
 * that installs it (--prefer-offline: dependencies from the local npm cache) must import every subpath in
 * Node ESM, bundle it with Vite for the browser, and import it from Deno, with the same result.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.ts';
import { packRepository } from '../helpers/pack-repository.ts';
import { OPUS_4_5, recordedSpend } from '../helpers/recorded-spend.ts';

const BIN = join(REPO_ROOT, 'node_modules/.bin');
const runEnvironment: NodeJS.ProcessEnv = {
  ...process.env,
  DENO_NO_UPDATE_CHECK: '1',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};
const run = (command: string, args: string[], cwd: string): string =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', env: runEnvironment });

/** What the consumer checks in every runtime: every subpath loads, and one fold gives a fixed view. */
const CHECK = `
import { FoldSession } from 'warpfold';
import { countTokens } from 'warpfold/tokens';
import { startTaskRail } from 'warpfold/task-rail';
import manifest from 'warpfold/package.json' with { type: 'json' };

const subpaths = Object.keys(manifest.exports).filter((key) => key !== './package.json');
const loaded = {};
for (const subpath of subpaths) {
  const module = await import(subpath === '.' ? 'warpfold' : 'warpfold/' + subpath.slice(2));
  loaded[subpath] = Object.keys(module).length;
}
const history = [{ role: 'system', content: 'You are a coding agent.' }, { role: 'user', content: 'Fix the failing test in src/app.ts.' }];
for (let step = 0; step < 40; step++) {
  history.push({ role: 'assistant', content: 'Step ' + step, tool_calls: [{ id: 'call_' + step, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: 'cat src/file_' + step + '.ts' }) } }] });
  history.push({ role: 'tool', tool_call_id: 'call_' + step, content: ('export const value_' + step + ' = ' + step + ';\\n').repeat(40) });
}
let clock = 0;
const session = new FoldSession({ pressureCeiling: 2000, now: () => clock });
let epochs = 0;
let view = [];
for (let end = 3; end <= history.length; end += 2) {
  clock += 20000;
  const outcome = session.prepare(history.slice(0, end));
  if (outcome.stats.epochReason) epochs++;
  view = outcome.messages;
}
const rail = startTaskRail({ id: 'ship', title: 'Ship', objective: 'Check the package', now: 1 });
export const result = { subpaths: loaded, epochs, viewLength: view.length, viewChars: JSON.stringify(view).length, tokens: countTokens('hello world'), rail: rail.ok };
`;

/** The Claude Code fixture that records usage per call, a signed thinking block and a screenshot. */
const USAGE_FIXTURE = join(REPO_ROOT, 'test/fixtures/claude-code/7d1c2e9a-5b3f-4c8e-9a21-3f6b0c4d8e17.jsonl');

/** Cells of a table row: columns are separated by two spaces or more. */
const cellsOf = (line: string): string[] => line.trim().split(/ {2,}/);

describe('the packed tarball', () => {
  let root: string;
  let tarball: string;
  let packed: { files: Array<{ path: string }> };
  const consumer = () => join(root, 'consumer');

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'warpfold-pack-'));
    const packedRepository = packRepository(root, runEnvironment);
    packed = { files: [...packedRepository.files] };
    tarball = packedRepository.tarball;
    const filename = basename(tarball);

    mkdirSync(consumer());
    writeFileSync(
      join(consumer(), 'package.json'),
      JSON.stringify(
        {
          name: 'consumer',
          private: true,
          type: 'module',
          dependencies: { warpfold: `file:../${filename}`, 'gpt-tokenizer': '4.0.0', idb: '8.0.4' },
        },
        null,
        2,
      ),
    );
    writeFileSync(join(consumer(), 'deno.json'), JSON.stringify({ nodeModulesDir: 'manual' }));
    writeFileSync(join(consumer(), 'check.mjs'), CHECK);
    writeFileSync(
      join(consumer(), 'node-main.mjs'),
      `import { result } from './check.mjs';\nconsole.log(JSON.stringify(result));\n`,
    );
    writeFileSync(
      join(consumer(), 'index.html'),
      '<!doctype html><script type="module" src="./browser-main.mjs"></script>\n',
    );
    writeFileSync(
      join(consumer(), 'browser-main.mjs'),
      `import { result } from './check.mjs';\nglobalThis.warpfoldResult = result;\nconsole.log(JSON.stringify(result));\n`,
    );
    // tarballs come from the local npm cache; metadata npm ci never fetched may come from the registry
    run('npm', ['install', '--prefer-offline', '--no-package-lock'], consumer());
  }, 480_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('is built by prepare and ships dist, types, LICENSE and README, but no sources or tests', () => {
    const paths = packed.files.map((file) => file.path);
    for (const path of [
      'dist/index.js',
      'dist/types/index.d.ts',
      'dist/tokens.js',
      'LICENSE',
      'README.md',
      'package.json',
    ])
      expect(paths).toContain(path);
    expect(paths.filter((path) => /^(src|test|bench|examples|scripts)\//.test(path))).toEqual([]);
    // the bin and the inspector it serves; no prepare script for npm to flag on install
    for (const path of ['dist/cli.js', 'dist-inspector/index.html']) expect(paths).toContain(path);
    const installed = JSON.parse(readFileSync(join(consumer(), 'node_modules/warpfold/package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      bin: Record<string, string>;
    };
    expect(installed.scripts.prepare).toBeUndefined();
    expect(installed.bin).toEqual({ warpfold: './dist/cli.js' });
    expect(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).toContain('"prepare": "npm run build"');
    const manifest = JSON.parse(readFileSync(join(consumer(), 'node_modules/warpfold/package.json'), 'utf8')) as {
      exports: Record<string, string | { types: string; import: string }>;
      dependencies?: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    // installing the core pulls in nothing: the tokenizer and idb are optional peers of the subpaths that load them
    expect(manifest.dependencies).toBeUndefined();
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(['gpt-tokenizer', 'idb']);
    for (const peer of Object.keys(manifest.peerDependencies))
      expect(manifest.peerDependenciesMeta[peer]?.optional, peer).toBe(true);
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue;
      expect(Object.keys(target)[0], `${subpath}: types first`).toBe('types');
      for (const file of [target.types, target.import])
        expect(paths, `${subpath} → ${file}`).toContain(file.replace(/^\.\//, ''));
    }
  });

  it('passes publint and Are The Types Wrong', () => {
    expect(run(join(BIN, 'publint'), ['run', tarball, '--strict'], root)).toMatch(/All good!/);
    // attw exits non-zero (and run throws) on any problem in the resolutions an ESM-only package must satisfy: node16 from ESM and bundler
    const report = run(join(BIN, 'attw'), [tarball, '--profile', 'esm-only'], root);
    expect(report).toContain('"warpfold/tokens"');
    expect(report).toMatch(/ignoring resolutions: 'node10', 'node16-cjs'/);
  });

  it('installs and imports every subpath in Node ESM, bundles with Vite for the browser, and imports from Deno, with the same result', async () => {
    const node = JSON.parse(run(process.execPath, ['node-main.mjs'], consumer()));
    expect(Object.keys(node.subpaths)).toContain('.');
    expect(Object.keys(node.subpaths)).toContain('./tokens');
    for (const [subpath, count] of Object.entries(node.subpaths)) expect(count, subpath).toBeGreaterThan(0);
    expect(node.epochs).toBeGreaterThan(3);
    expect(node.tokens).toBe(2);
    expect(node.rail).toBe(true);

    await build({
      root: consumer(),
      configFile: false,
      logLevel: 'silent',
      build: {
        outDir: 'dist-browser',
        target: 'es2022',
        modulePreload: { polyfill: false },
        chunkSizeWarningLimit: 4096,
      },
    });
    // the browser bundle uses no DOM, so it runs as is; what matters is what Vite resolved and emitted
    const assets = join(consumer(), 'dist-browser/assets');
    const bundles = readdirSync(assets).filter((file) => file.endsWith('.js'));
    expect(bundles.length).toBeGreaterThan(0);
    for (const bundle of bundles)
      expect(readFileSync(join(assets, bundle), 'utf8'), bundle).not.toMatch(/from\s*["']node:|require\(["']node:/);
    const entry = bundles.find((file) => file.startsWith('index'))!;
    const browser = JSON.parse(run(process.execPath, [join(assets, entry)], consumer()));
    expect(browser).toEqual(node);

    const deno = JSON.parse(run(join(BIN, 'deno'), ['run', '--no-prompt', 'node-main.mjs'], consumer()));
    expect(deno).toEqual(node);
  });

  it("runs the README's report through npx from an empty folder and from the clone: o200k, every column filled, the recorded spend to the cent", () => {
    const empty = mkdtempSync(join(tmpdir(), 'warpfold-npx-'));
    const expected = recordedSpend(USAGE_FIXTURE, OPUS_4_5);
    try {
      for (const cwd of [empty, join(root, 'clone')]) {
        const npx = (args: string[]) =>
          run('npx', ['--yes', '--package', tarball, 'warpfold', 'report', USAGE_FIXTURE, ...args], cwd);
        const report = JSON.parse(npx(['--json']));
        expect(report.tokenizer).toBe('o200k');
        const [session] = report.sessions;
        expect(session.price.id).toBe('claude-opus-4-5');
        expect(session.ceilingSource).toBe('model');
        expect(session.measured.calls).toBe(expected.calls);
        expect(session.measured.peakInputTokens).toBe(expected.peakInput);
        expect(session.measured.totalCost.toFixed(2)).toBe(expected.dollars.toFixed(2));
        expect(session.calibratedCalls).toBe(session.calls);
        for (const cost of Object.values(session.cost)) expect(typeof cost).toBe('number');
        expect(typeof session.retentionPercent).toBe('number');

        const table = npx([]).split('\n');
        const header = cellsOf(table[0]);
        const row = cellsOf(table[2]);
        expect(row).toHaveLength(header.length);
        for (const cell of row) expect(cell).not.toMatch(/^(|—|-|unpriced|not recorded)$/);
        expect(row[header.indexOf('spent $')]).toBe(`$${expected.dollars.toFixed(2)}`);
        expect(row[header.indexOf('retention')]).toMatch(/^\d+\.\d%/);
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 300_000);
});
