import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const page = (path: string) => resolve(import.meta.dirname, 'demo', path);

/**
 * The inspector (`demo/`): two pages (the inspector and the browser chat example), served and
 * previewed on 127.0.0.1 only. The tokenizer and the fold run in a Web Worker bundle of their own,
 * so the page's first chunk stays small.
 */
export default defineConfig({
  root: 'demo',
  base: './',
  build: {
    // its own folder: the library build empties dist/, which must not take down a served inspector
    outDir: resolve(import.meta.dirname, 'dist-inspector'),
    emptyOutDir: true,
    target: 'es2022',
    // the o200k rank table alone is ~2 MB minified; it loads lazily, in the worker
    chunkSizeWarningLimit: 2500,
    rollupOptions: { input: { inspector: page('index.html'), chat: page('chat.html') } },
  },
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
