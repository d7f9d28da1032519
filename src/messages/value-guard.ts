import { FoldInputError } from './fold-input-error.ts';

/**
 * Deepest nesting a message value may have. Real provider payloads stay under a few dozen
 * levels; 512 leaves ample room for them while keeping every recursive walk over a message
 * (ours, and the host's own `JSON.stringify` of the view) far from engine stack limits, which
 * are a few thousand frames in the smallest runtimes.
 *
 * Deeper values are refused (a `FoldInputError` naming the message and the field), also where
 * the message would be folded away, rather than carried as an opaque value: the raw tail and the
 * head are sent as they are, so a value this deep would reach the host's serializer and the
 * provider anyway, and one rule that a host (the worker answers 400) can state beats a limit
 * that holds only in some places.
 */
export const MAX_VALUE_DEPTH = 512;

/** How many leading path segments an error names before eliding the rest. */
const NAMED_SEGMENTS = 8;

function pathOf(segments: readonly string[]): string {
  const shown = segments.slice(0, NAMED_SEGMENTS).join('').replace(/^\./, '');
  const path = segments.length > NAMED_SEGMENTS ? `${shown}…` : shown;
  return path || 'the message';
}

const segmentOf = (key: string | number): string =>
  typeof key === 'number' ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;

/**
 * Checks that a value is a finite tree: no cycle, at most `MAX_VALUE_DEPTH` deep. Iterative, so
 * a hostile value cannot overflow the stack here; throws a `FoldInputError` naming the message
 * index and the field path. A value shared in two places (not a cycle) is fine.
 */
export function checkValueShape(value: unknown, index: number, field = ''): void {
  if (value === null || typeof value !== 'object') return;
  // explicit stack of frames: each holds an object and the keys still to visit
  const onPath = new Set<object>();
  const segments: string[] = [field];
  const frames: Array<{ value: object; keys: Array<string | number>; next: number }> = [];
  const enter = (child: object): void => {
    if (onPath.has(child))
      throw new FoldInputError(
        index,
        `${pathOf(segments)} refers back to itself: cyclic values cannot be sent to a provider`,
      );
    if (frames.length >= MAX_VALUE_DEPTH)
      throw new FoldInputError(index, `${pathOf(segments)} is nested more than ${MAX_VALUE_DEPTH} levels deep`);
    onPath.add(child);
    frames.push({ value: child, keys: Array.isArray(child) ? child.map((_, n) => n) : Object.keys(child), next: 0 });
  };
  enter(value);
  while (frames.length) {
    const frame = frames[frames.length - 1];
    if (frame.next >= frame.keys.length) {
      frames.pop();
      onPath.delete(frame.value);
      segments.pop();
      continue;
    }
    const key = frame.keys[frame.next++];
    const child = (frame.value as Record<string | number, unknown>)[key];
    if (child === null || typeof child !== 'object') continue;
    segments.push(segmentOf(key));
    enter(child);
  }
}
