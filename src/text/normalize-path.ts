/**
 * One spelling per file, so `./src//app.ts` and `src/app.ts` land on the same page-table row.
 * `..` is left alone: resolving it needs a working directory we do not have.
 */
export function normalizePath(raw: string): string {
  let path = raw.trim().replace(/^['"`]+|['"`]+$/g, '');
  path = path.replace(/\/{2,}/g, '/');
  path = path.replace(/\/\.(?=\/|$)/g, '');
  while (path.startsWith('./')) path = path.slice(2);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}

export function basenameOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

/**
 * Two normalised spellings name the same file when equal or when one is a slash-bounded suffix
 * of the other: `/testbed/django/db/utils.py` and `django/db/utils.py` (an agent's cwd differs
 * between calls), but never `app/utils.py` and `lib/utils.py`.
 */
export function pathsMatch(left: string, right: string): boolean {
  if (left === right) return left !== '';
  const [shorter, longer] = left.length < right.length ? [left, right] : [right, left];
  if (shorter === '' || shorter.startsWith('/')) return false;
  return longer.endsWith(`/${shorter}`);
}
