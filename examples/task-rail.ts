// Run: npx tsx examples/task-rail.ts   (after `npm run build`)
// start → sprint → shoot → ack → serialize → restore → render, with a fixed clock.
import {
  ackStep,
  renderTaskRail,
  restoreTaskRail,
  serializeTaskRail,
  shoot,
  sprint,
  startTaskRail,
  taskRailProgress,
  unwrapTaskRail,
  type TaskRailResult,
} from 'warpfold/task-rail';

// Time enters as a number; a real host passes Date.now(). Fixed here so output is stable.
let clock = 1_700_000_000_000;
const now = (): number => (clock += 1_000);

let rail = unwrapTaskRail(
  startTaskRail({
    id: 'rail-ship-feature',
    title: 'Ship the feature',
    objective: 'Keep execution state outside the prompt.',
    locked: true,
    steps: [
      { id: 'inspect', title: 'Inspect the failing path' },
      { id: 'patch', title: 'Patch the smallest correct surface', detail: 'Touch src/parser.ts only.' },
      { id: 'validate', title: 'Validate and write the handoff' },
    ],
    now: now(),
  }),
);

// Every operation returns { ok, rail } or { ok: false, error }; unwrapTaskRail throws instead.
rail = unwrapTaskRail(sprint(rail, { size: 2, now: now() }));
rail = unwrapTaskRail(shoot(rail, { now: now() }));
rail = unwrapTaskRail(
  ackStep(rail, { stepId: 'inspect', outcome: 'done', evidence: 'read src/parser.ts:120-180', now: now() }),
);
rail = unwrapTaskRail(shoot(rail, { now: now() }));

// A locked rail refuses structural edits but keeps accepting acks.
const refused: TaskRailResult = sprint(rail, { steps: [{ title: 'Sneak in a refactor' }], now: now() });
if (!refused.ok) console.log(`refused: ${refused.error.code} (${refused.error.message})`);

const saved = JSON.stringify(serializeTaskRail(rail));
const restored = restoreTaskRail(JSON.parse(saved));
if (!restored.ok) throw new Error(restored.error.message);
rail = restored.rail;

const progress = taskRailProgress(rail);
console.log(
  `progress: ${progress.resolved}/${progress.total} (${progress.percent}%), current: ${progress.currentStep?.id}`,
);
console.log(`saved ${saved.length} chars of JSON, revision ${rail.revision}\n`);
console.log(renderTaskRail(rail));

const broken = restoreTaskRail({
  ...JSON.parse(saved),
  steps: [{ id: 'x', title: 'x', status: 'finished', attempts: 0 }],
});
if (!broken.ok) console.log(`\nrestore rejected: ${broken.error.code} at ${broken.error.field}`);
