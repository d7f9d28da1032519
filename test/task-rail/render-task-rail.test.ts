import { describe, it, expect } from 'vitest';
import { ackStep, renderTaskRail, shoot, sprint, startTaskRail } from '../../src/task-rail/index.ts';
import { railOf, threeStepRail } from './helpers.ts';

describe('renderTaskRail', () => {
  it('renders title, progress, each step with its mark and evidence', () => {
    let rail = railOf(
      startTaskRail({
        id: 'rail-1',
        title: 'Ship it',
        objective: 'Fix the parser',
        locked: true,
        steps: [
          { id: 'a', title: 'Inspect' },
          { id: 'b', title: 'Patch', detail: 'only\nparser.ts' },
          { id: 'c', title: 'Validate' },
          { id: 'd', title: 'Docs' },
          { id: 'e', title: 'Release' },
        ],
        now: 0,
      }),
    );
    rail = railOf(
      ackStep(rail, { stepId: 'a', outcome: 'done', evidence: 'read   src/parser.ts\n lines 1-80', now: 1 }),
    );
    rail = railOf(ackStep(rail, { stepId: 'e', outcome: 'skipped', now: 2 }));
    rail = railOf(shoot(rail, { stepId: 'b', now: 3 }));
    rail = railOf(sprint(rail, { size: 1, now: 4 }));
    expect(renderTaskRail(rail)).toBe(
      [
        'Task rail: Ship it {rail-1} · 2/5 resolved · 40% · active · locked',
        'Objective: Fix the parser',
        '  [x] 1. Inspect {a} — evidence: read src/parser.ts lines 1-80',
        '  [>] 2. Patch {b} (active, attempt 1)',
        '      only parser.ts',
        '  [~] 3. Validate {c}',
        '  [ ] 4. Docs {d}',
        '  [-] 5. Release {e} (skipped)',
        'Marks: [x] done · [>] active · [~] queued · [ ] pending · [!] failed · [-] skipped',
      ].join('\n'),
    );
  });

  it('points at the next step when nothing is active, and shows failures', () => {
    const rail = railOf(ackStep(threeStepRail(), { stepId: 'a', outcome: 'failed', evidence: 'exit 2', now: 1 }));
    const text = renderTaskRail(rail);
    expect(text).toContain('[!] 1. Inspect {a} (failed, attempt 0) — evidence: exit 2');
    expect(text).toContain('· blocked');
    expect(text.split('\n').at(-2)).toBe('Next: {a} Inspect');
  });

  it('truncates long evidence to one line', () => {
    const rail = railOf(ackStep(threeStepRail(), { stepId: 'a', outcome: 'done', evidence: 'x'.repeat(500), now: 1 }));
    const line =
      renderTaskRail(rail)
        .split('\n')
        .find((candidate) => candidate.includes('{a}')) ?? '';
    expect(line.length).toBeLessThan(220);
    expect(line.endsWith('…')).toBe(true);
  });

  it('renders an empty rail without a legend', () => {
    expect(renderTaskRail(railOf(startTaskRail({ id: 'r', title: 'Plan', now: 0 })))).toBe(
      'Task rail: Plan {r} · 0/0 resolved · 0% · empty',
    );
  });

  it('is byte-identical for equal rails and ignores clock values', () => {
    const early = railOf(ackStep(threeStepRail(), { stepId: 'a', outcome: 'done', now: 1 }));
    const late = railOf(ackStep(threeStepRail(), { stepId: 'a', outcome: 'done', now: 999_999 }));
    expect(renderTaskRail(early)).toBe(renderTaskRail(late));
  });
});
