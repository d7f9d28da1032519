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
      while (
        command[i + 1] === '>' ||
        (operator === '>' && command[i + 1] === '&') ||
        (operator === '<' && command[i + 1] === '<')
      )
        operator += command[++i];
      tokens.push(descriptor + operator);
    } else token += char;
  }
  endCommand();
  return commands;
}

/** A command's simple commands, each as its words (redirection operators their own words), heredoc bodies left out. */
const simpleCommandsOf = (command: string) => splitSimpleCommands(stripHeredocBodies(command));

const looksLikeOption = (token: string) => token.startsWith('-') || token.startsWith('+');

/** A token that names a file: a slash path whose last segment has an extension, or a bare `name.ext`. */
function looksLikeFile(token: string): boolean {
  if (
    token === '' ||
    looksLikeOption(token) ||
    /\s|[*?{}$`=]/.test(token) ||
    token.endsWith('/') ||
    /^[a-z]+:\/\//i.test(token)
  )
    return false;
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
      out.push({
        path: normalizePath(target),
        how: redirect[1] === '>' ? 'written' : redirect[1] === '>>' ? 'edited' : 'read',
      });
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
  for (const arg of args)
    if (!written.has(arg) && looksLikeFile(arg)) out.push({ path: normalizePath(arg), how: 'read' });
  // `python reproduce.py`: the program itself may be a script path
  if (words[start] !== undefined && looksLikeFile(words[start]))
    out.push({ path: normalizePath(words[start]), how: 'read' });
}

/** `*** Update File: a.py` (apply_patch) and `+++ b/a.py` (unified diff) headers. */
export function patchTouches(text: string): PathTouch[] {
  const out: PathTouch[] = [];
  for (const match of text.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$/gm)) {
    out.push({ path: normalizePath(match[2]), how: match[1] === 'Add' ? 'written' : 'edited' });
  }
  for (const match of text.matchAll(/^\+\+\+ (?:b\/)?(\S+)/gm))
    if (match[1] !== '/dev/null') out.push({ path: normalizePath(match[1]), how: 'edited' });
  for (const match of text.matchAll(/^\*\*\* Move to: (.+)$/gm))
    out.push({ path: normalizePath(match[1]), how: 'written' });
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
  for (const tokens of simpleCommandsOf(command)) touchesOfSimpleCommand(tokens, out);
  return out.filter((touch) => touch.path !== '');
}

/**
 * Files a shell command shows whole: a lone `cat` of them, with no pipe, redirection or other
 * command to cut what comes back. What the agent saw there is the file as it then stood.
 */
export function wholeViewsOfShell(command: string): string[] {
  const commands = simpleCommandsOf(command);
  if (commands.length !== 1) return [];
  const [program, ...args] = commands[0];
  if (program !== 'cat' || args.some((arg) => /^\d?(>>?|<|&>|>&)/.test(arg))) return [];
  const operands = operandsOf(args);
  return operands.length && operands.every(looksLikeFile) ? operands.map(normalizePath) : [];
}

/** A copy's name says it keeps the old file: the file's own name with more after it, or bak/backup/orig/old. */
function namesBackupOf(source: string, target: string): boolean {
  const base = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  return (
    (base(target).startsWith(base(source)) && base(target) !== base(source)) ||
    /(^|[._-])(bak|backup|orig|old)([._-]|\d*$)/i.test(base(target))
  );
}

/**
 * Files a shell command copies or moves aside under a backup name (`cp config.py config.py.backup`):
 * an agent keeps the old file just before it replaces it, and writes the new one from its last
 * view of the old.
 */
export function backupSourcesOfShell(command: string): string[] {
  const out: string[] = [];
  for (const tokens of simpleCommandsOf(command)) {
    const program = tokens[0]?.split('/').pop();
    if (program !== 'cp' && program !== 'mv') continue;
    const operands = operandsOf(tokens.slice(1));
    if (operands.length !== 2 || !looksLikeFile(operands[0])) continue;
    if (namesBackupOf(operands[0], operands[1])) out.push(normalizePath(operands[0]));
  }
  return out;
}
