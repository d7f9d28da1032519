// What `warpfold --help` and each subcommand's `--help` print: usage, options, an example, exit codes.

const EXIT_CODES = `Exit codes:
  0  done
  1  a file could not be read (the others are still reported), or no session was found
  2  bad usage (unknown option, missing argument)`;

export const MAIN_HELP = `warpfold: deterministic context folding for long-running LLM agents

Usage:
  warpfold report [FILE|FOLDER...] [--claude] [--codex] [--gemini] [options]
  warpfold inspect FILE [--ceiling N] [--model ID] [--price ID] [--port N] [--open]
  warpfold fold FILE [--ceiling N] [--at CALL] [--out FILE] [--receipt FILE]
  warpfold --help | --version

Commands:
  report   replay sessions as an agent would and show what folding saves
  inspect  open the fold inspector on a local transcript (served on 127.0.0.1)
  fold     write the folded view of a session at one call, as JSON

Transcripts: Claude Code (~/.claude/projects/*/*.jsonl), Codex CLI (~/.codex/sessions/**/rollout-*.jsonl),
Gemini CLI (~/.gemini/tmp/*/chats/session-*.json), and OpenAI / Anthropic / Gemini message arrays.
Transcripts are only read, never written.

Example:
  warpfold report --claude --limit 5

Run 'warpfold COMMAND --help' for a command's options.

${EXIT_CODES}
`;

export const REPORT_HELP = `Usage: warpfold report [FILE|FOLDER...] [--claude] [--codex] [--gemini] [options]

Replays each session as an agent would (one prepare() per model call, 20 s apart) and prints one
row per session plus a total: the model and the price it is costed at, the fold ceiling and where
it came from, model calls, the peak input and the spend the transcript records (measured), the
input cost without folding (raw), with truncation, with tool-result clearing and with warpfold
(replayed, calibrated to the recorded input), warpfold's cache-hit share, retention at need
(marked ! under 90%) and the time spent folding. Notes under the table say what each column is.

Options:
  --claude            sessions in ~/.claude/projects (Claude Code)
  --codex             sessions in ~/.codex/sessions (Codex CLI)
  --gemini            sessions in ~/.gemini/tmp (Gemini CLI)
  --limit N           the newest N sessions of each folder (default 20; 0 for all)
  --ceiling N         fold under N prompt tokens (default: the model's budget, at most 200,000;
                      200,000 when the model or its window is unknown)
  --model ID          the model whose window sets the ceiling and whose prices apply (default: the recorded one)
  --price ID          cost at this model's prices (default: the model's; an unknown model is shown unpriced)
  --json              print the report as JSON
  --csv               print the report as CSV
  -h, --help          show this help

A line that does not parse is named on stderr with its file and line number; the rest of the
session still counts. Progress goes to stderr when it is a terminal.

Example:
  warpfold report --claude --limit 5
  warpfold report ~/.codex/sessions --ceiling 100000 --json > report.json

${EXIT_CODES}
`;

export const INSPECT_HELP = `Usage: warpfold inspect FILE [--ceiling N] [--model ID] [--price ID] [--port N] [--open]

Serves the fold inspector on http://127.0.0.1 with FILE loaded, and prints the URL. The file is read
by this local server only; nothing leaves the machine. Stop with Ctrl-C. The inspector opens with
the ceiling and prices 'warpfold report' uses for the same file.

Options:
  --ceiling N  fold under N prompt tokens (default: the model's budget, at most 200,000)
  --model ID   the model whose window sets the ceiling and whose prices apply (default: the recorded one)
  --price ID   cost at this model's prices (default: the model's)
  --port N     port to listen on (default: a free one)
  --open       open the URL in the default browser (xdg-open / open)
  -h, --help   show this help

Example:
  warpfold inspect ~/.claude/projects/my-project/3cfce0ff-….jsonl --open

${EXIT_CODES}
`;

export const FOLD_HELP = `Usage: warpfold fold FILE [--ceiling N] [--at CALL] [--out FILE] [--receipt FILE]

Replays FILE as an agent would and writes the folded view at the last model call (or at call
CALL) as a JSON array of messages in the input's dialect (OpenAI, Anthropic or Gemini), ready for
a provider request. Without --out the view goes to stdout.

Options:
  --ceiling N      fold under N prompt tokens (default: the model's budget, at most 200,000)
  --model ID       the model whose window sets the ceiling (default: the recorded one)
  --at CALL        the model call to stop at, from 1 (default: the last)
  --out FILE       write the view to FILE instead of stdout
  --receipt FILE   write the fold receipts (what each band covers and keeps) to FILE
  -h, --help       show this help

Example:
  warpfold fold session.jsonl --ceiling 50000 --out view.json --receipt receipt.json

${EXIT_CODES}
`;
