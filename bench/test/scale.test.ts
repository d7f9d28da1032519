import { describe, expect, it } from 'vitest';
import { runScale } from '../scale.ts';
import { syntheticTurn } from '../../test/helpers/workloads/synthetic-session.ts';

describe('scale run', () => {
  it('drives prepare() once per turn and reports growth', async () => {
    const report = await runScale({ turns: [10, 40], strategies: ['truncate'] });
    expect(report.rows.map((row) => [row.turns, row.completedTurns, row.stoppedByBudget])).toEqual([
      [10, 10, false],
      [40, 40, false],
    ]);
    expect(report.rows.every((row) => row.overCeilingCalls === 0 && row.errors === 0)).toBe(true);
    expect(report.growth.truncate).toMatchObject({ from: 10, to: 40 });
  });

  it('stops a run that passes its time budget and says so', async () => {
    const report = await runScale({ turns: [50, 100], strategies: ['raw'], budgetSeconds: 0 });
    expect(report.rows).toHaveLength(1);
    expect(report.rows[0]).toMatchObject({ turns: 50, completedTurns: 1, stoppedByBudget: true });
  });

  it('generates the same session every time', () => {
    expect(syntheticTurn(123)).toEqual(syntheticTurn(123));
    expect(syntheticTurn(80)[0]).toMatchObject({ role: 'user' });
  });
});
