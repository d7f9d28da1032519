// Records what the reference scorer (../shared/bench/score.mjs) produces on the bundled sessions
// into test/fixtures/scorer-reference/, for the parity tests that must run without ../shared:
//
//   npx tsx scripts/record-scorer-reference.ts          rewrite the recording
//   npx tsx scripts/record-scorer-reference.ts --check  exit 1 when the recording differs from the scorer
//
// Timings (`ms`) are dropped: they are the only figures that change from run to run.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  BASELINES,
  callIndices,
  digest,
  initialBaselineState,
  loadScorerFunctions,
  PARITY_CEILINGS,
  PARITY_SESSIONS,
  readingDigests,
  REFERENCE_DIR,
  REFERENCE_FILES,
  RENDER_SAMPLES,
  SCORER_PATH,
  scorerView,
  VIEW_SESSIONS,
  type RecordedReadings,
  type RecordedSummary,
  type RecordedViews,
} from '../test/baselines/scorer-reference.ts';
import { FIXTURE_SESSIONS_DIR, readFixture, REPO_ROOT } from '../test/helpers/fixtures.ts';

const check = process.argv.includes('--check');
if (!existsSync(SCORER_PATH)) {
  console.error(
    `record-scorer-reference: the reference scorer is not at ${relative(REPO_ROOT, SCORER_PATH)}; nothing ${check ? 'checked' : 'written'}.`,
  );
  process.exit(1);
}

function recordSummaries(): RecordedSummary[] {
  const corpus = mkdtempSync(join(tmpdir(), 'warpfold-scorer-'));
  try {
    for (const file of PARITY_SESSIONS) copyFileSync(join(FIXTURE_SESSIONS_DIR, file), join(corpus, file));
    return PARITY_CEILINGS.map((ceiling) => {
      const out = join(corpus, `scorer-${ceiling}.out`);
      execFileSync(
        process.execPath,
        [
          SCORER_PATH,
          '--corpus',
          corpus,
          '--ceiling',
          String(ceiling),
          '--strategies',
          BASELINES.join(','),
          '--json',
          out,
        ],
        { cwd: REPO_ROOT, stdio: 'pipe' },
      );
      const report = JSON.parse(readFileSync(out, 'utf8')) as {
        floor: number;
        summary: Record<string, Record<string, unknown>>;
      };
      const summary = Object.fromEntries(
        Object.entries(report.summary).map(([name, row]) => [
          name,
          Object.fromEntries(Object.entries(row).filter(([field]) => field !== 'ms')),
        ]),
      );
      return { ceiling, floor: report.floor, summary };
    });
  } finally {
    rmSync(corpus, { recursive: true, force: true });
  }
}

const scorer = loadScorerFunctions();

function recordViews(): RecordedViews {
  const views: RecordedViews = {};
  for (const file of VIEW_SESSIONS) {
    const { messages } = readFixture(file);
    views[file] = {};
    for (const ceiling of PARITY_CEILINGS) {
      views[file][ceiling] = {};
      for (const name of BASELINES) {
        const state = initialBaselineState(name);
        views[file][ceiling][name] = callIndices(messages).map((index) =>
          digest(scorerView(scorer, name, state, messages.slice(0, index), ceiling)),
        );
      }
    }
  }
  return views;
}

function recordReadings(): RecordedReadings {
  const sessions: RecordedReadings['sessions'] = {};
  for (const file of readdirSync(FIXTURE_SESSIONS_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const read = readFixture(file).messages.map((message) =>
      readingDigests(message, {
        render: scorer.renderMessage,
        identifiers: scorer.identifiers,
        contexts: scorer.contexts,
        shingles: scorer.messageShingles,
      }),
    );
    sessions[file] = { render: read.map((entry) => entry.render), reuse: read.map((entry) => entry.reuse) };
  }
  return { sessions, samples: RENDER_SAMPLES.map((sample) => scorer.renderMessage(sample)) };
}

const recorded = { summaries: recordSummaries(), views: recordViews(), readings: recordReadings() };
let differs = 0;
mkdirSync(REFERENCE_DIR, { recursive: true });
for (const [key, file] of Object.entries(REFERENCE_FILES)) {
  const path = join(REFERENCE_DIR, file);
  const text = JSON.stringify(recorded[key as keyof typeof recorded], null, 1) + '\n';
  const same = existsSync(path) && readFileSync(path, 'utf8') === text;
  if (check) {
    if (!same) differs++;
    console.log(`${relative(REPO_ROOT, path)}: ${same ? 'matches the scorer' : 'DIFFERS from the scorer'}`);
  } else {
    writeFileSync(path, text);
    console.log(`${relative(REPO_ROOT, path)}: ${same ? 'unchanged' : 'written'}`);
  }
}
if (differs > 0) {
  console.error(
    `record-scorer-reference: ${differs} recorded file(s) no longer match the scorer; run \`npx tsx scripts/record-scorer-reference.ts\` and review the diff.`,
  );
  process.exit(1);
}
