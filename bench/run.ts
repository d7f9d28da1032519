// `npm run bench`: every bench part (session replay, outage scenario, scale, and any part added to
// BENCH_PARTS), offline and deterministic apart from timings. Prints each part's table and writes
// `<part>.json` and `<part>.md` to bench/out/ (gitignored), so a run never dirties the checkout.
//
//   npx tsx bench/run.ts [--full | --corpus DIR] [--smoke] [--update] [--parts replay,scenario,...]
//                        [--out DIR] [--engine path] [--options JSON]
//
// The replay reads the sessions bundled in test/fixtures/sessions unless --corpus DIR is given, or
// --full for ../shared/corpus/dev. --update writes the committed bench/results/ instead and then
// regenerates README's tables from them (the committed tables come from `--full --update`).
// --smoke runs one bundled session at one ceiling, the scenario in one dialect and a short scale
// run, into a temporary folder unless --out is given: a CI check that everything works.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArguments } from './cli/arguments.ts';
import { isMainModule, runCommand } from './cli/is-main.ts';
import { COMMITTED_RESULTS, repoRelative, resolveCorpus, RUN_OUTPUT } from './cli/paths.ts';
import { writeResults } from './cli/write-results.ts';
import { BENCH_PARTS, type BenchContext, type BenchPart } from './parts.ts';
import { updateReadme } from './readme-tables.ts';
import type { ReplayReport } from './replay.ts';
import type { ScaleReport } from './scale.ts';
import type { ScenarioReport } from './scenario.ts';

export { SMOKE_SESSION } from './parts.ts';

/** A mistake in how the bench was called: reported as one line. */
export class BenchUsageError extends Error {
  override readonly name = 'BenchUsageError';
}

export interface BenchRunOptions {
  readonly smoke?: boolean;
  readonly out?: string;
  /** A corpus folder for the replay; the bundled sessions when absent (see `full`). */
  readonly corpus?: string;
  /** Replay ../shared/corpus/dev. */
  readonly full?: boolean;
  /** Write bench/results/ and README's tables. */
  readonly update?: boolean;
  /** Names of the parts to run, in BENCH_PARTS order; all when absent. */
  readonly parts?: readonly string[];
  readonly enginePath?: string;
  readonly engineOptions?: Record<string, unknown>;
  readonly print?: (text: string) => void;
  readonly log?: (line: string) => void;
}

export interface BenchRun {
  readonly out: string;
  readonly seconds: number;
  /** Every part's report, by part name. */
  readonly reports: Readonly<Record<string, unknown>>;
  readonly replay?: ReplayReport;
  readonly scenario?: ScenarioReport;
  readonly scale?: ScaleReport;
  /** True when --update changed README's tables. */
  readonly readmeChanged?: boolean;
}

function selectParts(names: readonly string[] | undefined): BenchPart[] {
  if (!names) return [...BENCH_PARTS];
  const unknown = names.filter((name) => !BENCH_PARTS.some((part) => part.name === name));
  if (unknown.length > 0)
    throw new BenchUsageError(
      `bench: unknown part ${unknown.join(', ')} (parts: ${BENCH_PARTS.map((part) => part.name).join(', ')})`,
    );
  return BENCH_PARTS.filter((part) => names.includes(part.name));
}

export async function runBench(options: BenchRunOptions = {}): Promise<BenchRun> {
  const started = performance.now();
  const smoke = options.smoke === true;
  if (smoke && options.update)
    throw new BenchUsageError('bench: --update writes the committed results and cannot be combined with --smoke');
  if (options.update && options.out)
    throw new BenchUsageError('bench: --update always writes bench/results/; drop --out');
  const parts = selectParts(options.parts);
  const corpus = resolveCorpus({ corpus: options.corpus, full: options.full });
  const print = options.print ?? ((text: string) => console.log(text));
  const log = options.log ?? ((line: string) => console.error(line));
  const out = options.update
    ? COMMITTED_RESULTS
    : (options.out ?? (smoke ? mkdtempSync(join(tmpdir(), 'warpfold-bench-smoke-')) : RUN_OUTPUT));
  const context: BenchContext = {
    smoke,
    corpus,
    engine: { enginePath: options.enginePath, engineOptions: options.engineOptions },
    log,
  };

  const reports: Record<string, unknown> = {};
  for (const part of parts) {
    const report = await part.run(context);
    reports[part.name] = report;
    writeResults(out, part.name, report, part.markdown(report));
    print(`\n## ${part.title(report)}\n\n${part.tables(report, context)}`);
  }
  const readmeChanged = options.update ? updateReadme(COMMITTED_RESULTS) : undefined;

  const seconds = +((performance.now() - started) / 1000).toFixed(1);
  print(
    `\nresults in ${repoRelative(out)} (${seconds} s)${options.update ? `; README tables ${readmeChanged ? 'updated' : 'unchanged'}` : ''}`,
  );
  return {
    out,
    seconds,
    reports,
    readmeChanged,
    replay: reports.replay as ReplayReport | undefined,
    scenario: reports.scenario as ScenarioReport | undefined,
    scale: reports.scale as ScaleReport | undefined,
  };
}

async function main(): Promise<void> {
  const parsed = parseArguments(process.argv.slice(2));
  await runBench({
    smoke: parsed.smoke === 'true',
    update: parsed.update === 'true',
    full: parsed.full === 'true',
    out: parsed.out,
    corpus: parsed.corpus,
    parts: parsed.parts
      ? parsed.parts
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean)
      : undefined,
    enginePath: parsed.engine,
    engineOptions: parsed.options ? JSON.parse(parsed.options) : undefined,
  });
}

if (isMainModule(import.meta.url)) await runCommand(main);
