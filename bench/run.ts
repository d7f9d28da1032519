// `npm run bench`: the session replay, the outage scenario and the scale run, all offline and
// deterministic apart from timings; prints the three tables and writes bench/results/.
// `--smoke` runs one real session at one ceiling, the scenario in one dialect and a short scale
// run, writing to a temporary folder unless --out is given: a CI check that everything works.
//
//   npx tsx bench/run.ts [--smoke] [--out DIR] [--corpus DIR] [--engine path] [--options JSON]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArguments } from './cli/arguments.ts';
import { isMainModule } from './cli/is-main.ts';
import { writeResults } from './cli/write-results.ts';
import { DEFAULT_RESULTS, replayMarkdown, replaySummaryTable, runReplay, type ReplayReport } from './replay.ts';
import { growthLines, runScale, scaleMarkdown, scaleTable, type ScaleReport } from './scale.ts';
import { dialectTable, runScenario, scenarioMarkdown, scenarioTable, type ScenarioReport } from './scenario.ts';

export const SMOKE_SESSION = 'msa-ds-chat-test-django__django-10914';

export interface BenchRunOptions {
  readonly smoke?: boolean;
  readonly out?: string;
  readonly corpus?: string;
  readonly enginePath?: string;
  readonly engineOptions?: Record<string, unknown>;
  readonly print?: (text: string) => void;
  readonly log?: (line: string) => void;
}

export interface BenchRun {
  readonly out: string;
  readonly seconds: number;
  readonly replay: ReplayReport;
  readonly scenario: ScenarioReport;
  readonly scale: ScaleReport;
}

export async function runBench(options: BenchRunOptions = {}): Promise<BenchRun> {
  const started = performance.now();
  const smoke = options.smoke === true;
  const print = options.print ?? ((text: string) => console.log(text));
  const log = options.log ?? ((line: string) => console.error(line));
  const out = options.out ?? (smoke ? mkdtempSync(join(tmpdir(), 'warpfold-bench-smoke-')) : DEFAULT_RESULTS);
  const engine = { enginePath: options.enginePath, engineOptions: options.engineOptions };

  log(smoke ? `replay: ${SMOKE_SESSION}, ceiling 8000` : 'replay: every session of the corpus, ceilings 16000 and 8000');
  const replay = await runReplay({ ...engine, corpus: options.corpus, log, ...(smoke ? { only: [SMOKE_SESSION], ceilings: [8_000] } : {}) });
  writeResults(out, 'replay', replay, replayMarkdown(replay));
  print(`\n## Session replay (${replay.files.length} sessions)\n\n${replaySummaryTable(replay)}`);

  log('scenario: outage investigation, 16 calls');
  const scenario = await runScenario({ ...engine, log, ...(smoke ? { ceilings: [8_000], dialects: ['openai'] as const } : {}) });
  writeResults(out, 'scenario', scenario, scenarioMarkdown(scenario));
  print(`\n## Outage scenario\n\n${scenarioTable(scenario)}`);
  if (!smoke) print(`\n${dialectTable(scenario)}`);

  log('scale: prepare() on long synthetic sessions');
  const scale = await runScale({ ...engine, log, ...(smoke ? { turns: [20, 100], budgetSeconds: 30, hugeStepCalls: [2_000] } : {}) });
  writeResults(out, 'scale', scale, scaleMarkdown(scale));
  print(`\n## Scale\n\n${scaleTable(scale)}\n${growthLines(scale).join('\n')}`);

  const seconds = +((performance.now() - started) / 1000).toFixed(1);
  print(`\nresults in ${out} (${seconds} s)`);
  return { out, seconds, replay, scenario, scale };
}

async function main(): Promise<void> {
  const parsed = parseArguments(process.argv.slice(2));
  await runBench({
    smoke: parsed.smoke === 'true',
    out: parsed.out,
    corpus: parsed.corpus,
    enginePath: parsed.engine,
    engineOptions: parsed.options ? JSON.parse(parsed.options) : undefined,
  });
}

if (isMainModule(import.meta.url)) await main();
