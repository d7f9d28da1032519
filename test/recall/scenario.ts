import type { ScriptStep } from './dialects.ts';

/** A payload only the folded read carried: if recall works, it comes back byte for byte. */
export const LOADER_PAYLOAD = [
  "import { readFileSync } from 'node:fs';",
  '',
  'export function loadConfig(path: string) {',
  '  const raw = readFileSync(path, "utf8");',
  '  // deploy token 7f3a9c2e1b4d, rotated 2024-06-01',
  '  const PORT = 8080;',
  '  return { ...JSON.parse(raw), port: PORT };',
  '}',
].join('\n');

export const TEST_FAILURE = [
  'FAIL test/config.test.ts',
  '  ● loadConfig › honours PORT from the environment',
  '    expected 9090, received 8080',
  '      at loadConfig (src/config/loader.ts:6:9)',
  'Tests: 1 failed, 11 passed, 12 total',
].join('\n');

/**
 * Turn 1 reads src/config/loader.ts and runs the tests; turn 2 works on the docs and then edits
 * the loader again under another spelling (`./src//config/loader.ts`).
 */
export const LOADER_SCRIPT: readonly ScriptStep[] = [
  { kind: 'system', text: 'You are a careful coding agent.' },
  { kind: 'user', text: 'The config loader ignores PORT. Look at src/config/loader.ts and fix it.' },
  {
    kind: 'assistant',
    text: '🔍 Reading the loader first.',
    calls: [{ id: 'call_read_loader', name: 'read_file', input: { path: 'src/config/loader.ts' } }],
  },
  { kind: 'results', results: [{ id: 'call_read_loader', name: 'read_file', text: LOADER_PAYLOAD }] },
  {
    kind: 'assistant',
    text: 'The loader hardcodes PORT = 8080 and never reads process.env.PORT. Running the tests to confirm.',
    calls: [{ id: 'call_test_1', name: 'bash', input: { command: 'npm test -- test/config.test.ts' } }],
  },
  { kind: 'results', results: [{ id: 'call_test_1', name: 'bash', text: TEST_FAILURE, isError: true }] },
  { kind: 'assistant', text: '🏁 The failure is the hardcoded PORT in src/config/loader.ts line 6.' },
  { kind: 'user', text: 'Before fixing, update docs/config.md to describe the PORT variable.' },
  {
    kind: 'assistant',
    text: '▶️ Reading the docs.',
    calls: [{ id: 'call_read_docs', name: 'read_file', input: { path: 'docs/config.md' } }],
  },
  {
    kind: 'results',
    results: [{ id: 'call_read_docs', name: 'read_file', text: '# Config\n\nThe server listens on a fixed port.' }],
  },
  {
    kind: 'assistant',
    text: 'Docs updated in my head; now the loader.',
    calls: [
      {
        id: 'call_edit_loader',
        name: 'edit_file',
        input: {
          path: './src//config/loader.ts',
          old_string: 'const PORT = 8080;',
          new_string: 'const PORT = Number(process.env.PORT ?? 8080);',
        },
      },
    ],
  },
  {
    kind: 'results',
    results: [{ id: 'call_edit_loader', name: 'edit_file', text: 'Edited src/config/loader.ts (1 replacement).' }],
  },
];
