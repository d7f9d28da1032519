import { defineConfig } from 'vitest/config';

/** CI asks for a JSON report too, to print a plain pass/fail line (see .ci/run). */
const report = process.env.WARPFOLD_VITEST_REPORT;

/**
 * The real agent CLIs (Claude Code, Codex, Gemini CLI, pi) against the scripted provider, directly and
 * through `warpfold proxy`. Installed by `npm run test:clients` (scripts/install-clients.mjs); one
 * file at a time, because each session spawns a CLI, a proxy and a provider on a 2-core machine.
 */
export default defineConfig({
  test: {
    name: 'clients',
    include: ['test/clients/**/*.test.ts'],
    environment: 'node',
    testTimeout: 300_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    sequence: { concurrent: false },
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report } } : {}),
  },
});
