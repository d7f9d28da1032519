// `npm run fuzz`: the fuzz run of test/fuzz/fuzz-run.ts for longer, for local soak runs.
//
//   npm run fuzz -- [--seed 1] [--cases 600] [--calls-per-case 40] [--dialects chat|all|openai,gemini] [--out test-results/fuzz.json]
//
// Prints what it tried and found (counts per class) and exits non-zero when an invariant broke.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DIALECTS, type Dialect } from '../helpers/dialects.ts';
import { CHAT_DIALECTS, fuzzSummary, runFuzz } from './fuzz-run.ts';

const argument = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
};

const seed = Number(argument('seed', '1'));
const cases = Number(argument('cases', '600'));
const callsPerCase = Number(argument('calls-per-case', '40'));
const out = argument('out', 'test-results/fuzz.json');
// --dialects all adds the Responses and AI SDK dialects to the three chat dialects
const dialectList = argument('dialects', 'chat');
const dialects: readonly Dialect[] =
  dialectList === 'all' ? DIALECTS : dialectList === 'chat' ? CHAT_DIALECTS : (dialectList.split(',') as Dialect[]);
const started = performance.now();
const report = runFuzz({ seed, cases, callsPerCase, dialects });
console.log(fuzzSummary(report));
console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s; report in ${out}`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(report, null, 1)}\n`);
process.exit(Object.values(report.problems).some((count) => count > 0) ? 1 : 0);
