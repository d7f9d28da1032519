import { resolve } from 'node:path';
import { defineConfig } from 'vite';

/**
 * The `warpfold` executable as one Node file, dist/cli.js, with the o200k encoder of gpt-tokenizer
 * bundled in: `npx --package ./warpfold-*.tgz warpfold report` counts exactly with nothing else
 * installed. The library entries (vite.config.ts) keep gpt-tokenizer an optional peer. Runs after
 * the library build, into the same folder.
 */
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: false,
    target: 'node20',
    minify: false,
    ssr: resolve(import.meta.dirname, 'src/node/cli/main.ts'),
    rollupOptions: { output: { entryFileNames: 'cli.js', format: 'es', inlineDynamicImports: true } },
  },
  ssr: { target: 'node', noExternal: true },
});
