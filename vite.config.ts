import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const entry = (path: string) => resolve(import.meta.dirname, path);

/** Library build: one ES module per public subpath, shared chunks between them, declarations from tsc. */
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    minify: false,
    lib: {
      entry: {
        index: entry('src/index.ts'),
        fold: entry('src/fold/index.ts'),
        'raw-rebirth-seed': entry('src/rebirth/index.ts'),
        budget: entry('src/budget/index.ts'),
        episodes: entry('src/episodes/index.ts'),
        glyphs: entry('src/glyphs/index.ts'),
        'task-rail': entry('src/task-rail/index.ts'),
        recall: entry('src/recall/index.ts'),
        tokens: entry('src/tokens/index.ts'),
        'ai-sdk': entry('src/ai-sdk/index.ts'),
        'openai-responses': entry('src/openai-responses/index.ts'),
      },
      formats: ['es'],
    },
    rollupOptions: { external: [/^gpt-tokenizer(\/.*)?$/, /^node:/] },
  },
});
