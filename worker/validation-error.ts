import type { z } from '@hono/zod-openapi';
import { ApiError } from './api-error.ts';

/** `['messages', 3, 'role']` → `messages[3].role`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let field = '';
  for (const part of path)
    field += typeof part === 'number' ? `[${part}]` : field === '' ? String(part) : `.${String(part)}`;
  return field;
}

const TARGET_ROOT: Record<string, string> = { json: '(body)', query: '(query)', param: '(path)' };

/** How many issues an answer lists: a body with thousands of bad elements gets a short answer. */
export const LISTED_ISSUES = 20;

/** A 400 naming the first bad field, with the first issues listed and how many there were. */
export function validationError(error: z.ZodError, target: string): ApiError {
  const issues = error.issues
    .slice(0, LISTED_ISSUES)
    .map((issue) => ({ field: fieldPath(issue.path) || (TARGET_ROOT[target] ?? target), message: issue.message }));
  const first = issues[0] ?? { field: TARGET_ROOT[target] ?? target, message: 'invalid' };
  return new ApiError('invalid-request', `${first.field}: ${first.message}`, {
    field: first.field,
    issues,
    ...(error.issues.length > LISTED_ISSUES ? { issueCount: error.issues.length } : {}),
  });
}
