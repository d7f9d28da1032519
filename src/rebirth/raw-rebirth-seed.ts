import { FoldInputError } from '../messages/fold-input-error.ts';
import { skeletonLine } from '../fold/skeleton-line.ts';
import { Transcript, type TokenCounter } from '../messages/transcript.ts';
import type { CanonicalMessage, ProviderMessage } from '../messages/types.ts';
import { estimateTokens } from '../text/estimate-tokens.ts';
import { renderTaskRail } from '../task-rail/render-task-rail.ts';
import type { TaskRail } from '../task-rail/types.ts';
import { closetSection, editDeltaLines, pairSteps, workspaceLines } from './seed-sections.ts';
import { headOf } from '../text/safe-cut.ts';

export const REBIRTH_SEED_DIRECTIVE =
  '[warpfold rebirth seed] The conversation was reset to stay within its context budget. Below is a deterministic record of it: ' +
  'read the first section first and continue the work from where it stands; do not start over.';

export interface RebirthSeedSection {
  readonly title: string;
  readonly body: string;
}

export interface RawRebirthSeed {
  readonly text: string;
  readonly sections: readonly RebirthSeedSection[];
  /** True when the history ended on a user message, which the seed carries as the live request. */
  readonly mergedLiveTurn: boolean;
}

export interface RawRebirthSeedOptions {
  /** Token budget for the whole seed (default 6,000). */
  readonly budgetTokens?: number;
  readonly countTokens?: TokenCounter;
  /** The agent's task rail (or its rendering), shown in its own section. */
  readonly taskRail?: TaskRail | string;
  /** Host-known workspace facts (cwd, branch, …), shown before the inferred ones. */
  readonly workspace?: string;
}

/** Section shares of the seed budget; unused share flows to the activity log. */
const SHARES = { first: 0.3, thread: 0.2, closet: 0.1, edits: 0.1, rail: 0.1, activity: 0.15, workspace: 0.05 };

/** Keeps whole lines from the end (newest) or the start until the budget is spent. */
function fitLines(lines: readonly string[], budget: number, keepNewest: boolean): string {
  const out: string[] = [];
  let used = 0;
  const ordered = keepNewest ? [...lines].reverse() : lines;
  for (const line of ordered) {
    const cost = estimateTokens(line) + 1;
    if (used + cost > budget) break;
    used += cost;
    out.push(line);
  }
  if (keepNewest) out.reverse();
  const dropped = lines.length - out.length;
  return dropped > 0
    ? (keepNewest ? [`(${dropped} earlier lines omitted)`, ...out] : [...out, `(${dropped} more lines omitted)`]).join(
        '\n',
      )
    : out.join('\n');
}

function clipText(text: string, budget: number): string {
  if (estimateTokens(text) <= budget) return text;
  // one long line is cut by characters rather than dropped whole
  if (!text.includes('\n')) return `${headOf(text, Math.max(40, Math.floor(budget * 3)))}…`;
  const lines = text.split('\n');
  const head = fitLines(lines, budget * 0.5, false);
  const tail = fitLines(lines.slice(head.split('\n').length), budget * 0.45, true);
  return `${head}\n${tail}`;
}

/** Renders sections under their titles, after the continuity directive. */
export function renderRawRebirthSeed(sections: readonly RebirthSeedSection[]): string {
  return [
    REBIRTH_SEED_DIRECTIVE,
    ...sections.filter((section) => section.body.trim()).map((section) => `── ${section.title} ──\n${section.body}`),
  ].join('\n\n');
}

/** Builds the seed from canonical messages; the live user turn appears exactly once, in the first section. */
export function buildSeedFromCanonical(
  messages: readonly CanonicalMessage[],
  options: RawRebirthSeedOptions = {},
): RawRebirthSeed {
  const budget = options.budgetTokens ?? 6_000;
  const last = messages[messages.length - 1];
  const live = last?.role === 'user' && last.isTurnBoundary ? last : undefined;
  let instructionIndex = -1;
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i].isTurnBoundary) {
      instructionIndex = i;
      break;
    }
  const instruction = instructionIndex >= 0 ? messages[instructionIndex] : undefined;
  let lastAssistant: CanonicalMessage | undefined;
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i].role === 'assistant' && messages[i].text.trim()) {
      lastAssistant = messages[i];
      break;
    }

  const first: string[] = [];
  if (live) first.push(`LIVE REQUEST (answer this now):\n${clipText(live.text, budget * SHARES.first * 0.5)}`);
  else if (instruction)
    first.push(`Current instruction (in progress):\n${clipText(instruction.text, budget * SHARES.first * 0.4)}`);
  if (lastAssistant) first.push(`Your last message:\n${clipText(lastAssistant.text, budget * SHARES.first * 0.35)}`);
  const steps = pairSteps(messages);
  const lastStep = steps[steps.length - 1];
  if (lastStep && !live && lastStep.index >= (lastAssistant?.index ?? 0)) {
    const output = lastStep.results.map((result) => result.text).join('\n');
    first.push(
      `Last tool call:\n${skeletonLine(lastStep.call, lastStep.results, 200)}${output ? `\n${clipText(output, budget * SHARES.first * 0.25)}` : ''}`,
    );
  }

  const threadStart = Math.max(0, instructionIndex);
  const threadLines: string[] = [];
  // steps come in message order: one pass over both keeps this linear in calls
  let step = 0;
  for (const message of messages.slice(threadStart)) {
    while (step < steps.length && steps[step].index < message.index) step++;
    if (message === live || message === instruction) continue;
    if (message.role === 'assistant' && message.text.trim())
      threadLines.push(headOf(message.text.trim().split('\n')[0], 240));
    for (; step < steps.length && steps[step].index === message.index; step++)
      threadLines.push(skeletonLine(steps[step].call, steps[step].results, 120));
  }
  const userTurns = messages
    .filter((message) => message.isTurnBoundary && message !== live)
    .map((message) => `» ${headOf(message.text.trim().split('\n')[0], 200)}`);
  const present = first.join('\n');
  const sections: RebirthSeedSection[] = [
    { title: 'READ FIRST: last messages', body: first.join('\n\n') },
    { title: 'Current thread', body: fitLines(threadLines, budget * SHARES.thread, true) },
    { title: 'Coordinate closet (exact identifiers)', body: closetSection(messages, budget * SHARES.closet, present) },
    {
      title: 'Active edit delta (files changed and how)',
      body: fitLines(editDeltaLines(steps), budget * SHARES.edits, true),
    },
    {
      title: 'Task rail',
      body: options.taskRail
        ? clipText(
            typeof options.taskRail === 'string' ? options.taskRail : renderTaskRail(options.taskRail),
            budget * SHARES.rail,
          )
        : '',
    },
    {
      title: 'Activity log',
      body: fitLines(
        [...userTurns.slice(-8), ...steps.map((step) => skeletonLine(step.call, step.results, 90))],
        budget * SHARES.activity,
        true,
      ),
    },
    { title: 'Workspace', body: [options.workspace ?? '', ...workspaceLines(messages)].filter(Boolean).join('\n') },
  ];
  let text = renderRawRebirthSeed(sections);
  // the activity log gives way first when a precise counter finds the seed over budget
  if (options.countTokens && options.countTokens(text) > budget) {
    sections.splice(5, 1, { title: 'Activity log', body: '' });
    text = renderRawRebirthSeed(sections);
    if (options.countTokens(text) > budget) text = clipText(text, budget * 0.9);
  }
  return { text, sections, mergedLiveTurn: live !== undefined };
}

/** The raw rebirth seed of a provider-shaped history (any dialect). */
export function buildRawRebirthSeedFromMessages(
  history: readonly ProviderMessage[],
  options: RawRebirthSeedOptions = {},
): RawRebirthSeed {
  if (!Array.isArray(history)) throw new FoldInputError(-1, 'history must be an array of messages');
  const transcript = new Transcript(() => 0);
  transcript.sync(history);
  return buildSeedFromCanonical(transcript.messages, options);
}
