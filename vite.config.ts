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
        freeze: entry('src/freeze/index.ts'),
        rebirth: entry('src/rebirth/index.ts'),
        budget: entry('src/budget/index.ts'),
        episodes: entry('src/episodes/index.ts'),
        glyphs: entry('src/glyphs/index.ts'),
        'task-rail': entry('src/task-rail/index.ts'),
        recall: entry('src/recall/index.ts'),
        tokens: entry('src/tokens/index.ts'),
        storage: entry('src/storage/index.ts'),
        'storage-memory': entry('src/storage/memory.ts'),
        'storage-durable-object': entry('src/storage/durable-object.ts'),
        transcripts: entry('src/transcripts/index.ts'),
        // Node-only (atomic writers, host loops); no core entry imports it.
        node: entry('src/node/index.ts'),
        'providers/anthropic': entry('src/providers/anthropic/index.ts'),
        'providers/openai': entry('src/providers/openai/index.ts'),
        'providers/gemini': entry('src/providers/gemini/index.ts'),
        'providers/claude-cli': entry('src/providers/claude-cli/index.ts'),
        'providers/codex-cli': entry('src/providers/codex-cli/index.ts'),
        'providers/gemini-cli': entry('src/providers/gemini-cli/index.ts'),
        'providers/ai-sdk': entry('src/providers/ai-sdk/index.ts'),
        'storage-indexeddb': entry('src/storage/indexeddb.ts'),
        'storage-kv': entry('src/storage/kv.ts'),
        // the baselines and the scorer's metrics, for benchmarks, the inspector and the command line
        baselines: entry('src/baselines/index.ts'),
        // the fold gateway's core, shared by `warpfold proxy` and the worker
        gateway: entry('src/gateway/index.ts'),
      },
      formats: ['es'],
    },
    rollupOptions: { external: [/^gpt-tokenizer(\/.*)?$/, /^idb(\/.*)?$/, /^node:/] },
  },
});
