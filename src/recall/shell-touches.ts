import { isBareFileName } from './path-mentions.ts';
import { normalizePath } from '../text/normalize-path.ts';

/** How a call touched a file. `written` replaces the whole file; episodes decide created vs edited. */
export type TouchKind = 'read' | 'edited' | 'written';

export interface PathTouch {
  readonly path: string;
  readonly how: TouchKind;
}

const HEREDOC = /<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1/g;
const WRAPPERS = new Set(['sudo', 'env', 'time', 'nohup', 'command', 'exec', 'xargs']);
const NOT_FILES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/stdin', '-']);

/** Heredoc bodies are file contents being written, not paths the command touches. */
export function stripHeredocBodies(command: string): string {
  const lines = command.split('\n');
  const kept: string[] = [];
  const terminators: string[] = [];
  for (const line of lines) {
    if (terminators.length) {
      if (line.trim() === terminators[0]) terminators.shift();
      continue;
    }
    kept.push(line);
    for (const match of line.matchAll(HEREDOC)) terminators.push(match[2]);
  }
  return kept.join('\n');
}

/** Splits on `&&`, `||`, `;`, `|` and newlines outside quotes; each piece is one simple command. */
function splitSimpleCommands(command: string): string[][] {
  const commands: string[][] = [];
  let tokens: string[] = [];
  let token = '';
  let quote: string | null = null;
  let quoted = false;
  const endToken = () => {
    if (token !== '' || quoted) tokens.push(token);
    token = '';
    quoted = false;
  };
  const endCommand = () => {
    endToken();
    if (tokens.length) commands.push(tokens);
    tokens = [];
  };
  for (let i = 0; i < command.length; i++) {
    const char = command[i];
    if (quote !== null) {
      if (char === quote) quote = null;
      else if (char === '\\' && quote === '"' && i + 1 < command.length) token += command[++i];
      else token += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      quoted = true;
    } else if (char === '\\' && i + 1 < command.length) token += command[++i];
    else if (char === ' ' || char === '\t') endToken();
    else if (char === '\n' || char === ';' || char === '|' || (char === '&' && command[i + 1] === '&')) {
      if (char === '&' || (char === '|' && command[i + 1] === '|')) i++;
      endCommand();
    } else if (char === '>' || char === '<') {
      // redirection operators become their own tokens: `>>out.txt` → `>>`, `out.txt`
      const descriptor = /^\d$/.test(token) ? token : '';
      if (descriptor) token = '';
      endToken();
      let operator = char;
      while (command[i + 1] === '>' || (operator === '>' && command[i + 1] === '&') || (operator === '<' && command[i + 1] === '<')) operator += command[++i];
      tokens.push(descriptor + operator);
    } else token += char;
  }
  endCommand();
  return commands;
}

const looksLikeOption = (token: string) => token.startsWith('-') || token.startsWith('+');

/** A token that names a file: a slash path whose last segment has an extension, or a bare `name.ext`. */
function looksLikeFile(token: string): boolean {
  if (token === '' || looksLikeOption(token) || /\s|[*?{}$`=]/.test(token) || token.endsWith('/') || /^[a-z]+:\/\//i.test(token)) return false;
  if (NOT_FILES.has(token)) return false;
  if (!token.includes('/')) return isBareFileName(token);
  const last = token.slice(token.lastIndexOf('/') + 1);
  return /^[\w.@+-]*\.[A-Za-z0-9]{1,8}$/.test(last) && /^[~.]?[\w.@+/-]+$/.test(token);
}

function operandsOf(tokens: readonly string[]): string[] {
  return tokens.filter((token) => !looksLikeOption(token));
}

function touchesOfSimpleCommand(tokens: readonly string[], out: PathTouch[]): void {
  const words: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const redirect = /^\d?(>>?|<)$/.exec(token);
    if (redirect) {
      const target = tokens[i + 1];
      i++;
      if (target === undefined || NOT_FILES.has(target) || target.startsWith('&')) continue;
      out.push({ path: normalizePath(target), how: redirect[1] === '>' ? 'written' : redirect[1] === '>>' ? 'edited' : 'read' });
      continue;
    }
    if (/^\d?(<<<?|>&|&>)/.test(token)) {
      i++; // the heredoc word, here-string or descriptor after the operator is no file
      continue;
    }
    words.push(token);
  }
  let start = 0;
  while (start < words.length && (WRAPPERS.has(words[start]) || /^[A-Za-z_]\w*=/.test(words[start]))) start++;
  const program = (words[start] ?? '').split('/').pop() ?? '';
  const args = words.slice(start + 1);
  const files = (list: readonly string[]) => list.filter(looksLikeFile);
  let writes: string[] = [];
  let how: TouchKind = 'edited';
  if (program === 'sed' || program === 'perl') {
    if (args.some((arg) => /^-[a-zA-Z]*i/.test(arg) || arg.startsWith('--in-place'))) writes = files(operandsOf(args));
  } else if (program === 'tee') {
    writes = files(operandsOf(args));
    how = args.some((arg) => arg === '-a' || arg === '--append') ? 'edited' : 'written';
  } else if (program === 'touch') {
    writes = files(operandsOf(args));
    how = 'written';
  } else if (program === 'cp' || program === 'mv' || program === 'install') {
    const operands = operandsOf(args);
    if (operands.length >= 2 && looksLikeFile(operands[operands.length - 1])) writes = [operands[operands.length - 1]];
    how = 'written';
  } else if (program === 'rm' || program === 'truncate' || program === 'chmod') {
    writes = files(operandsOf(args));
  }
  const written = new Set(writes);
  for (const path of writes) out.push({ path: normalizePath(path), how });
  for (const arg of args) if (!written.has(arg) && looksLikeFile(arg)) out.push({ path: normalizePath(arg), how: 'read' });
  // `python reproduce.py`: the program itself may be a script path
  if (words[start] !== undefined && looksLikeFile(words[start])) out.push({ path: normalizePath(words[start]), how: 'read' });
}

/** `*** Update File: a.py` (apply_patch) and `+++ b/a.py` (unified diff) headers. */
export function patchTouches(text: string): PathTouch[] {
  const out: PathTouch[] = [];
  for (const match of text.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$/gm)) {
    out.push({ path: normalizePath(match[2]), how: match[1] === 'Add' ? 'written' : 'edited' });
  }
  for (const match of text.matchAll(/^\+\+\+ (?:b\/)?(\S+)/gm)) if (match[1] !== '/dev/null') out.push({ path: normalizePath(match[1]), how: 'edited' });
  for (const match of text.matchAll(/^\*\*\* Move to: (.+)$/gm)) out.push({ path: normalizePath(match[1]), how: 'written' });
  return out;
}

/**
 * Files a shell command reads and writes, from its words rather than a regex over the whole
 * string: redirections, `sed -i`, `tee`, `touch`, `cp`/`mv` targets are writes; other file-like
 * operands are reads. Heredoc bodies are skipped, except an apply_patch body, whose headers name
 * the files it edits.
 */
export function shellTouches(command: string): PathTouch[] {
  const out: PathTouch[] = [];
  if (command.includes('*** Begin Patch')) out.push(...patchTouches(command));
  for (const tokens of splitSimpleCommands(stripHeredocBodies(command))) touchesOfSimpleCommand(tokens, out);
  return out.filter((touch) => touch.path !== '');
}
