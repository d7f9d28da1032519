// Minified + gzipped size of what a browser app pays for `import { FoldSession } from 'warpfold'`
// (tree-shaken from the built dist/), and of each public subpath. Run after `npm run build`.
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const entries: Array<[string, string]> = [
  ['FoldSession (warpfold)', `import { FoldSession } from './dist/index.js'; globalThis.x = FoldSession;`],
  ['warpfold/fold (everything)', `export * from './dist/fold.js';`],
  ['warpfold/raw-rebirth-seed', `export * from './dist/raw-rebirth-seed.js';`],
  ['warpfold/recall', `export * from './dist/recall.js';`],
  ['warpfold/episodes', `export * from './dist/episodes.js';`],
  ['warpfold/task-rail', `export * from './dist/task-rail.js';`],
  ['warpfold/budget', `export * from './dist/budget.js';`],
  ['warpfold/glyphs', `export * from './dist/glyphs.js';`],
];

for (const [name, contents] of entries) {
  const result = await build({ stdin: { contents, resolveDir: process.cwd(), loader: 'js' }, bundle: true, minify: true, format: 'esm', platform: 'neutral', write: false, charset: 'utf8' });
  const code = result.outputFiles[0].contents;
  console.log(`${name.padEnd(30)} ${(code.length / 1024).toFixed(1).padStart(7)} KB min ${(gzipSync(code, { level: 9 }).length / 1024).toFixed(1).padStart(6)} KB gzip`);
}
