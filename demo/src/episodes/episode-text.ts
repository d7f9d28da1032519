// How the Episodes panel words an episode: the user's request as they typed it, without the markup
// Claude Code wraps slash commands and notifications in, and only real files.

/** Claude Code's slash-command wrapper: `<command-name>/review</command-name> … <command-args>src</command-args>`. */
const COMMAND_NAME = /<command-name>([\s\S]*?)<\/command-name>/;
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;
/** Blocks the user never typed: reminders, command output, hook output. */
const HIDDEN_BLOCKS =
  /<(system-reminder|local-command-stdout|local-command-stderr|command-message|command-stdout|user-prompt-submit-hook)>[\s\S]*?<\/\1>/g;
const TASK_NOTIFICATION = /<task-notification>([\s\S]*?)<\/task-notification>/;
const SUMMARY = /<summary>([\s\S]*?)<\/summary>/;
/** Any tag left: `<tag>`, `</tag>`, `<tag attr="…">`, `<tag/>` with a lowercase, dashed name. */
const ANY_TAG = /<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/g;

const squeeze = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The request as the user's words: `/review src` for a slash command, a notification's summary, tags removed. */
export function userWords(request: string): string {
  const command = COMMAND_NAME.exec(request);
  if (command) {
    const args = COMMAND_ARGS.exec(request)?.[1] ?? '';
    return squeeze(`${command[1]} ${args}`);
  }
  const notification = TASK_NOTIFICATION.exec(request);
  if (notification) {
    const summary = SUMMARY.exec(notification[1])?.[1] ?? notification[1].replace(ANY_TAG, ' ');
    const rest = squeeze(request.replace(TASK_NOTIFICATION, ' ').replace(HIDDEN_BLOCKS, ' ').replace(ANY_TAG, ' '));
    return squeeze(`task notification: ${summary}${rest ? ` · ${rest}` : ''}`);
  }
  return squeeze(request.replace(HIDDEN_BLOCKS, ' ').replace(ANY_TAG, ' '));
}

/** Windows device names (a `2>nul` redirect) and Unix device files: written to, never files. */
const WINDOWS_DEVICES = /^(nul|con|prn|aux|com[1-9]|lpt[1-9])(\.[^./\\]*)?$/i;
const UNIX_DEVICES = /^\/dev\/(null|zero|stdin|stdout|stderr|tty|random|urandom|fd\/\d+)$/;

export function isDeviceName(path: string): boolean {
  const base = path.split(/[\\/]/).pop() ?? path;
  return UNIX_DEVICES.test(path) || WINDOWS_DEVICES.test(base);
}
