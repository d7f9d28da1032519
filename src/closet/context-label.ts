import { cutAfter } from '../text/safe-cut.ts';
const LABEL_BEFORE = /([A-Za-z_][\w-]{1,23})["'`]?\s*(?:[:=]|is|was)?\s*["'`]?\s*$/;

/**
 * A short label for an opaque value from the word just before its first occurrence:
 * `"changelog_id": "7fd5835b"` → `changelog_id`. None for values that explain themselves.
 */
export function extractVerbatimContextLabel(source: string, value: string): string | undefined {
  if (/[/=:]/.test(value) || value.startsWith('#')) return undefined;
  const at = source.indexOf(value);
  if (at <= 0) return undefined;
  const before = source.slice(cutAfter(source, Math.max(0, at - 48)), at);
  const match = LABEL_BEFORE.exec(before);
  const label = match?.[1];
  if (!label || !/[A-Za-z]/.test(label) || /^[0-9a-f]+$/i.test(label)) return undefined;
  return label;
}
