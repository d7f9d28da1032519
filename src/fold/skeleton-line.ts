import type { ToolCall, ToolResult } from '../messages/types.ts';
import { argumentDetail, firstLine, keyArgument, trailingValues } from './key-argument.ts';
import { toolFamily } from './tool-family.ts';
import { toolOutcome } from './tool-outcome.ts';

const CALL_MARK = '▸';

/**
 * One line per tool call: name, key argument, outcome. `▸ bash: pytest -x tests/ → error: E   assert 1 == 2`,
 * `▸ Read: src/app.py @10+40 → 40 lines`. Any tool name works; known families add detail.
 */
export function skeletonLine(call: ToolCall, results: readonly ToolResult[], maxArgumentChars: number): string {
  const family = toolFamily(call.name);
  const fullKey = keyArgument(family, call.input);
  const trailing = fullKey.includes('\n') ? '' : trailingValues(family, call.input);
  const key = firstLine(trailing ? `${fullKey} ${trailing}` : fullKey, maxArgumentChars);
  const multiline = fullKey.includes('\n') ? ' ⋯' : '';
  const detail = trailing ? '' : argumentDetail(family, call.input);
  const outcome = toolOutcome(results);
  let tail: string;
  if (outcome.status === 'pending') tail = 'pending';
  else if (outcome.status === 'error') tail = `error${outcome.errorLine ? `: ${outcome.errorLine}` : ''}`;
  else tail = outcome.lineCount === 0 ? 'ok' : `${outcome.lineCount} line${outcome.lineCount === 1 ? '' : 's'}`;
  return `${CALL_MARK} ${call.name}${key ? `: ${key}${multiline}` : ''}${detail} → ${tail}`;
}
