import { MAX_VALUE_DEPTH } from '../src/fold/index.ts';
import { ApiError } from './api-error.ts';

/**
 * The deepest nesting a request body may have: a message sits two levels down (the body object,
 * then its `messages` array), and may nest `MAX_VALUE_DEPTH` levels counting itself, as the
 * library accepts. Anything deeper is refused before the body is parsed, cloned or sent to a
 * Durable Object, whose structured clone would otherwise run out of stack.
 */
export const MAX_BODY_DEPTH = MAX_VALUE_DEPTH + 2;
/** More elements than this in one array is no history a session can hold, only work for the validator. */
export const MAX_ARRAY_ELEMENTS = 50_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** How many leading levels of the path an error names. */
const NAMED_LEVELS = 2;

/**
 * Scans JSON text once, without parsing it, and refuses a body nested deeper than
 * `MAX_BODY_DEPTH` or with an array longer than `MAX_ARRAY_ELEMENTS`: a 400 naming where
 * (`messages[3]`). Malformed JSON is left for the parser to report.
 */
export function checkJsonShape(text: string): void {
  // per open container: is it an array, its element count so far, and the key last read in it
  const arrays: boolean[] = [];
  const counts: number[] = [];
  const keys: Array<string | undefined> = [];
  let lastString: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      const start = i;
      for (i++; i < text.length; i++) {
        const inner = text.charCodeAt(i);
        if (inner === BACKSLASH) i++;
        else if (inner === QUOTE) break;
      }
      if (arrays.length && counts[counts.length - 1] === 0) counts[counts.length - 1] = 1;
      // only the first levels' keys are ever named: keep short ones
      lastString = arrays.length <= NAMED_LEVELS && i - start < 130 ? text.slice(start + 1, i) : undefined;
      continue;
    }
    if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (arrays.length >= MAX_BODY_DEPTH)
        throw refusal(
          `the body is nested more than ${MAX_BODY_DEPTH} levels deep (a message may nest ${MAX_VALUE_DEPTH})`,
          arrays,
          counts,
          keys,
        );
      if (arrays.length && counts[counts.length - 1] === 0) counts[counts.length - 1] = 1;
      arrays.push(code === OPEN_ARRAY);
      counts.push(0);
      keys.push(undefined);
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      arrays.pop();
      counts.pop();
      keys.pop();
    } else if (code === COLON && arrays.length) {
      keys[keys.length - 1] = lastString;
    } else if (code === COMMA && arrays.length) {
      const count = ++counts[counts.length - 1];
      if (arrays[arrays.length - 1] && count > MAX_ARRAY_ELEMENTS)
        throw refusal(
          `an array has more than ${MAX_ARRAY_ELEMENTS} elements`,
          arrays.slice(0, -1),
          counts.slice(0, -1),
          keys.slice(0, -1),
        );
    } else if (arrays.length && counts[counts.length - 1] === 0 && code > 0x20) {
      counts[counts.length - 1] = 1;
    }
  }
}

/** `messages[3]`: the first levels of the path to where the scan stopped. */
function fieldOf(
  arrays: readonly boolean[],
  counts: readonly number[],
  keys: ReadonlyArray<string | undefined>,
): string {
  let field = '';
  for (let level = 0; level < Math.min(arrays.length, NAMED_LEVELS); level++) {
    if (arrays[level]) field += `[${Math.max(0, counts[level] - 1)}]`;
    else if (keys[level] === undefined) break;
    else field += field === '' ? keys[level] : `.${keys[level]}`;
  }
  return field || '(body)';
}

function refusal(
  problem: string,
  arrays: readonly boolean[],
  counts: readonly number[],
  keys: ReadonlyArray<string | undefined>,
): ApiError {
  const field = fieldOf(arrays, counts, keys);
  return new ApiError('invalid-request', `${field}: ${problem}`, { field });
}
