import { findIdentifiers } from '../text/find-identifiers.ts';
import { normalizePath } from '../text/normalize-path.ts';

// Bare file names ("see models.py") only count with an extension source files use; a looser
// rule would read dotted module names and version strings as files.
const FILE_EXTENSIONS =
  'py|pyi|ts|tsx|mts|cts|js|jsx|mjs|cjs|json|jsonc|md|mdx|rst|txt|yml|yaml|toml|ini|cfg|conf|env|lock|rs|go|java|kt|kts|scala|swift|c|h|cc|cpp|hpp|cs|rb|php|sh|bash|zsh|ps1|html|htm|css|scss|sass|less|vue|svelte|sql|xml|csv|tsv|log|patch|diff|proto|graphql|gradle|tf|ipynb|dart|ex|exs|erl|hs|ml|lua|r|pl|m';

const BARE_FILE = new RegExp(`(?<![\\w./@+-])[\\w@+-][\\w.@+-]*\\.(?:${FILE_EXTENSIONS})(?![\\w/.-]|\\.\\w)`, 'g');
const BARE_FILE_EXACT = new RegExp(`^[\\w@+-][\\w.@+-]*\\.(?:${FILE_EXTENSIONS})$`);

/** True for a bare file name with a known extension (`reproduce.py`), not `django.db.models`. */
export function isBareFileName(token: string): boolean {
  return BARE_FILE_EXACT.test(token);
}

/**
 * Paths written in prose or output, normalised, in order of first occurrence. Slash paths come
 * from the closet's identifier finder; `bareNames` adds plain file names, which is right for the
 * user's words and too noisy for tool output (`ls` listings name every file in a folder).
 */
export function findPathMentions(raw: string, bareNames: boolean): string[] {
  // `src//a.ts` is a path too; `https://` keeps its slashes
  const text = raw.replace(/(?<!:)\/{2,}/g, '/');
  const found: Array<[number, string]> = [];
  for (const identifier of findIdentifiers(text)) {
    if (identifier.kind === 'path') found.push([identifier.offset, normalizePath(identifier.value)]);
  }
  if (bareNames) for (const match of text.matchAll(BARE_FILE)) found.push([match.index ?? 0, match[0]]);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const [, path] of found.sort((a, b) => a[0] - b[0])) {
    if (path === '' || seen.has(path)) continue;
    seen.add(path);
    out.push(path);
  }
  return out;
}
