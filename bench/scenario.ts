// The built-in scenario: a 16-call outage investigation with real tool calls, in the OpenAI,
// Anthropic and Gemini dialects, replayed call by call through every strategy.
// Writes bench/results/scenario.{json,md}.
//
//   npx tsx bench/scenario.ts [--ceilings 16000,8000] [--dialects openai,anthropic,gemini]
//     [--model claude-sonnet-4-5] [--strategies ...] [--engine path] [--out bench/results]
import { nameList, numberList, parseArguments } from './cli/arguments.ts';
import { isMainModule } from './cli/is-main.ts';
import { formatInteger, markdownTable, type Cell } from './cli/markdown-table.ts';
import { writeResults } from './cli/write-results.ts';
import { repoRelative, RUN_OUTPUT } from './cli/paths.ts';
import { OUTAGE_SCRIPT } from '../test/helpers/workloads/outage-script.ts';
import { replayScenario, type ScenarioRun } from './scenario/replay-scenario.ts';
import type { Dialect } from '../src/baselines/dialect.ts';
import { ALL_STRATEGY_NAMES, selectStrategies, type EngineSource } from './strategies/registry.ts';

export const DEFAULT_SCENARIO_CEILINGS = [16_000, 8_000];
export const DEFAULT_DIALECTS: readonly Dialect[] = ['openai', 'anthropic', 'gemini'];
export const DEFAULT_SCENARIO_MODEL = 'claude-sonnet-4-5';

export interface ScenarioOptions extends EngineSource {
  readonly ceilings?: readonly number[];
  readonly dialects?: readonly Dialect[];
  readonly model?: string;
  readonly strategies?: readonly string[];
  readonly log?: (line: string) => void;
}

export interface ScenarioReport {
  readonly kind: 'scenario';
  readonly model: string;
  readonly facts: typeof OUTAGE_SCRIPT.facts;
  readonly skipped: Array<{ name: string; reason: string }>;
  readonly runs: ScenarioRun[];
}

export async function runScenario(options: ScenarioOptions = {}): Promise<ScenarioReport> {
  const { definitions, skipped } = await selectStrategies(options.strategies ?? ALL_STRATEGY_NAMES, options);
  for (const { name, reason } of skipped) options.log?.(`  ${name}: skipped (${reason})`);
  const model = options.model ?? DEFAULT_SCENARIO_MODEL;
  const runs: ScenarioRun[] = [];
  for (const ceiling of options.ceilings ?? DEFAULT_SCENARIO_CEILINGS) {
    for (const dialect of options.dialects ?? DEFAULT_DIALECTS) {
      for (const definition of definitions) {
        const run = replayScenario(OUTAGE_SCRIPT, definition, dialect, ceiling, model);
        if (run.firstError) options.log?.(`  ${definition.name} threw (${dialect}, ${ceiling}) ${run.firstError}`);
        runs.push(run);
      }
    }
  }
  return { kind: 'scenario', model, facts: OUTAGE_SCRIPT.facts, skipped, runs };
}

const money = (value: number): string => value.toFixed(4);

export function scenarioTable(report: ScenarioReport): string {
  const dialect = report.runs[0]?.dialect;
  const header = [
    'ceiling',
    'strategy',
    'input $',
    'cache reads $',
    'cache writes $',
    'fresh $',
    'extra calls',
    'total $',
    'cache hit %',
    'facts at need',
    'facts in final',
    'final tokens',
    'max tokens',
    'final vs raw',
    'over ceiling',
  ];
  const rows = report.runs
    .filter((run) => run.dialect === dialect)
    .map((run): Cell[] => [
      formatInteger(run.ceiling),
      run.strategy,
      money(run.inputCost),
      money(run.cacheReadCost),
      money(run.cacheWriteCost),
      money(run.freshCost),
      run.extraCalls ? `${run.extraCalls} (${money(run.extraCost)})` : '0',
      money(run.totalCost),
      run.cacheHitPercent.toFixed(1),
      `${run.factsAtNeed}/${run.factsTotal}`,
      `${run.factsInFinalPrompt}/${run.factsTotal}`,
      formatInteger(run.finalPromptTokens),
      formatInteger(run.maxPromptTokens),
      `${run.finalVersusRaw.toFixed(2)}×`,
      run.overCeilingCalls,
    ]);
  return markdownTable(header, rows);
}

export function dialectTable(report: ScenarioReport): string {
  const dialects = [...new Set(report.runs.map((run) => run.dialect))];
  const keys = [...new Set(report.runs.map((run) => `${run.ceiling}|${run.strategy}`))];
  const header = ['ceiling', 'strategy', ...dialects.map((dialect) => `${dialect}: total $ · at need · final tokens`)];
  const rows = keys.map((key): Cell[] => {
    const [ceiling, strategy] = key.split('|');
    return [
      formatInteger(Number(ceiling)),
      strategy,
      ...dialects.map((dialect) => {
        const run = report.runs.find(
          (candidate) => candidate.dialect === dialect && `${candidate.ceiling}|${candidate.strategy}` === key,
        );
        return run
          ? `${money(run.totalCost)} · ${run.factsAtNeed}/${run.factsTotal} · ${formatInteger(run.finalPromptTokens)}`
          : '—';
      }),
    ];
  });
  return markdownTable(header, rows);
}

export function scenarioMarkdown(report: ScenarioReport): string {
  const dialect = report.runs[0]?.dialect ?? 'openai';
  const lines = [
    '# Outage scenario',
    '',
    `16 model calls of a tool-using agent debugging a checkout outage; 16 vital facts (${[...new Set(report.facts.map((fact) => fact.kind))].join(', ')}) planted in tool results at different depths, each used later.`,
    `Prices: ${report.model}, 5-minute cache: cached prefix at 0.1x if it reaches the model's minimum and the previous call was under 5 minutes ago (one 7-minute operator pause lets it expire), everything after it written at 1.25x; tool definitions and the system prompt are billed too.`,
    '"facts at need": the fact was in the prompt of the call whose answer uses it. "extra calls": model calls a summarizer makes on its own, input and output billed. Over-ceiling counts the messages a strategy controls.',
    '',
    `## ${dialect} dialect`,
    '',
    scenarioTable(report),
    '',
    '## Same run in each dialect',
    '',
    dialectTable(report),
    '',
    '## Facts',
    '',
    markdownTable(
      ['fact', 'kind', 'planted in result of call', 'needed at call'],
      report.facts.map((fact) => [`\`${fact.value}\``, fact.kind, fact.plantedAtStep, fact.neededAtStep]),
    ),
  ];
  for (const { name, reason } of report.skipped) lines.push('', `- ${name}: not run (${reason})`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const parsed = parseArguments(process.argv.slice(2));
  const report = await runScenario({
    ceilings: numberList(parsed.ceilings, DEFAULT_SCENARIO_CEILINGS),
    dialects: nameList(parsed.dialects, DEFAULT_DIALECTS) as Dialect[],
    model: parsed.model,
    strategies: nameList(parsed.strategies, ALL_STRATEGY_NAMES),
    enginePath: parsed.engine,
    engineOptions: parsed.options ? JSON.parse(parsed.options) : undefined,
    log: (line) => console.error(line),
  });
  console.log(scenarioTable(report));
  console.log('');
  console.log(dialectTable(report));
  const written = writeResults(parsed.out ?? RUN_OUTPUT, 'scenario', report, scenarioMarkdown(report));
  console.log(`\nwrote ${repoRelative(written.json)} and ${repoRelative(written.markdown)}`);
}

if (isMainModule(import.meta.url)) await main();
