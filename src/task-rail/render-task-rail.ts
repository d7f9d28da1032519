import { taskRailProgress } from './progress.ts';
import type { TaskRail, TaskRailStep, TaskStepStatus } from './types.ts';
import { headOf } from '../text/safe-cut.ts';

/** ASCII marks survive any transport and any tokenizer. */
export const TASK_STEP_MARKS: Readonly<Record<TaskStepStatus, string>> = Object.freeze({
  done: '[x]',
  active: '[>]',
  queued: '[~]',
  pending: '[ ]',
  failed: '[!]',
  skipped: '[-]',
});

const evidenceLimit = 160;

function oneLine(value: string, limit: number): string {
  const flat = value.replace(/\s+/gu, ' ').trim();
  return flat.length <= limit ? flat : `${headOf(flat, limit - 1)}…`;
}

function stepLine(step: TaskRailStep, position: number): string {
  let line = `${TASK_STEP_MARKS[step.status]} ${position}. ${oneLine(step.title, 200)} {${step.id}}`;
  if (step.status === 'active') line += ` (active, attempt ${step.attempts})`;
  else if (step.status === 'failed') line += ` (failed, attempt ${step.attempts})`;
  else if (step.status === 'skipped') line += ' (skipped)';
  if (step.evidence) line += ` — evidence: ${oneLine(step.evidence, evidenceLimit)}`;
  return line;
}

/**
 * Compact, deterministic plain text for prompts and the rebirth seed: no clock values, no
 * locale formatting, so the same rail always renders byte-identically.
 */
export function renderTaskRail(rail: TaskRail): string {
  const progress = taskRailProgress(rail);
  const flags = [`${progress.resolved}/${progress.total} resolved`, `${progress.percent}%`, progress.status];
  if (rail.locked) flags.push('locked');
  const lines = [`Task rail: ${oneLine(rail.title, 200)} {${rail.id}} · ${flags.join(' · ')}`];
  if (rail.objective) lines.push(`Objective: ${oneLine(rail.objective, 400)}`);
  rail.steps.forEach((step, index) => {
    lines.push(`  ${stepLine(step, index + 1)}`);
    if (step.detail && (step.status === 'active' || step.status === 'failed'))
      lines.push(`      ${oneLine(step.detail, 300)}`);
  });
  if (progress.currentStep !== null && progress.currentStep.status !== 'active') {
    lines.push(`Next: {${progress.currentStep.id}} ${oneLine(progress.currentStep.title, 200)}`);
  }
  if (rail.steps.length > 0)
    lines.push('Marks: [x] done · [>] active · [~] queued · [ ] pending · [!] failed · [-] skipped');
  return lines.join('\n');
}
