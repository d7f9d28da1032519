import { renderCloset } from '../closet/render-closet.ts';
import { keyArgument } from '../fold/key-argument.ts';
import { skeletonLine } from '../fold/skeleton-line.ts';
import { toolFamily } from '../fold/tool-family.ts';
import { pairToolCalls } from '../messages/pair-tool-calls.ts';
import type { CanonicalMessage, ToolCall, ToolResult } from '../messages/types.ts';

export interface SeedStep {
  readonly index: number;
  readonly call: ToolCall;
  readonly results: readonly ToolResult[];
}

/** Tool calls in order with their results. */
export function pairSteps(messages: readonly CanonicalMessage[]): SeedStep[] {
  return pairToolCalls(messages).map((pair) => ({
    index: pair.messageIndex,
    call: pair.call,
    results: pair.result ? [pair.result] : [],
  }));
}

const MUTATING_SHELL =
  /\bsed\s+-i|\bpatch\b|\bgit\s+(apply|commit|checkout|reset|merge|rebase|stash)|(?<![<>])>{1,2}\s*(?!\/dev\/null)[\w./~-]+|\b(mv|cp|rm|touch|mkdir)\s|\btee\s/;

/** Files the agent changed and how, newest last: edits, writes and mutating shell commands. */
export function editDeltaLines(steps: readonly SeedStep[]): string[] {
  const lines: string[] = [];
  for (const step of steps) {
    const family = toolFamily(step.call.name);
    if (family === 'edit' || family === 'write') lines.push(skeletonLine(step.call, step.results, 120));
    else if (family === 'bash' && MUTATING_SHELL.test(keyArgument('bash', step.call.input)))
      lines.push(skeletonLine(step.call, step.results, 160));
  }
  return lines;
}

/** Directories that most paths share: where the agent works. */
export function workspaceLines(messages: readonly CanonicalMessage[]): string[] {
  const roots = new Map<string, number>();
  const files = new Map<string, number>();
  const pathPattern = /(?:^|[\s"'`(=])((?:\/|\.\/|~\/)?(?:[\w.@-]+\/)+[\w.@-]+\.\w{1,8})\b/g;
  for (const message of messages) {
    const text = [message.text, ...message.toolCalls.map((call) => JSON.stringify(call.input))].join('\n');
    for (const match of text.matchAll(pathPattern)) {
      const path = match[1];
      files.set(path, (files.get(path) ?? 0) + 1);
      const root = path.startsWith('/') ? path.split('/').slice(0, 3).join('/') : path.split('/')[0];
      roots.set(root, (roots.get(root) ?? 0) + 1);
    }
  }
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, count)
      .map(([value]) => value);
  const lines: string[] = [];
  if (roots.size) lines.push(`roots: ${top(roots, 4).join(' · ')}`);
  if (files.size) lines.push(`files touched most: ${top(files, 12).join(' · ')}`);
  return lines;
}

export function closetSection(messages: readonly CanonicalMessage[], budgetTokens: number, present: string): string {
  return renderCloset(messages, 0, messages.length, { budgetTokens, isPresent: (value) => present.includes(value) });
}
