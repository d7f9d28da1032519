// What `warpfold --help` and each subcommand's `--help` print: usage, options, an example, exit codes.

const EXIT_CODES = `Exit codes:
  0  done
  1  a file could not be read (the others are still reported), or no session was found
  2  bad usage (unknown option, missing argument)`;

export const MAIN_HELP = `warpfold: deterministic context folding for long-running LLM agents

Usage:
  warpfold report [FILE|FOLDER...] [--claude] [--codex] [--gemini] [options]
  warpfold inspect FILE [--ceiling N] [--model ID] [--price ID] [--port N] [--open]
  warpfold inspect --proxy URL [--session ID] [--token T] [--port N] [--open]
  warpfold fold FILE [--ceiling N] [--at CALL] [--out FILE] [--receipt FILE]
  warpfold proxy [--port N] [--ceiling N] [--shadow] [options]
  warpfold claude|codex|gemini|pi [PROXY FLAGS] [-- CLIENT ARGS]
  warpfold --help | --version

Commands:
  report   replay sessions as an agent would and show what folding saves
  inspect  open the fold inspector on a local transcript, or on a running proxy's sessions (served on 127.0.0.1)
  fold     write the folded view of a session at one call, as JSON
  proxy    serve a provider-compatible fold gateway for agents (Anthropic, OpenAI, Gemini APIs)
  claude, codex, gemini, pi
           run that agent through the proxy (reusing a running one, or starting it)

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
       warpfold inspect --proxy URL [--session ID] [--token T] [--port N] [--open]

Serves the fold inspector on http://127.0.0.1 with FILE loaded, and prints the URL. The file is read
by this local server only; nothing leaves the machine. Stop with Ctrl-C. The inspector opens with
the ceiling and prices 'warpfold report' uses for the same file.

With --proxy URL (a running 'warpfold proxy'), it first prints one row per session of the proxy:
calls, folded calls, raw and forwarded tokens, the provider's input, cache-read and cache-write
tokens, what those cost at the model's prices (billed $), what the raw requests would have cost
with the client's own prompt caching (raw $), and the difference (saved $); a model without a
known price is shown unpriced. Then it serves the inspector with one session's raw history (its
last call, read afresh from the proxy on each load) at the ceiling the proxy folded it under. The
session must be warm: the proxy keeps raw history in memory only.

Options:
  --ceiling N   fold under N prompt tokens (default: the model's budget, at most 200,000)
  --model ID    the model whose window sets the ceiling and whose prices apply (default: the recorded one)
  --price ID    cost at this model's prices (default: the model's)
  --proxy URL   a running proxy's URL, as 'warpfold proxy' prints it (instead of FILE)
  --session ID  with --proxy: the session to inspect (default: the most recent)
  --token T     with --proxy: the proxy's token (or WARPFOLD_PROXY_TOKEN)
  --port N      port to listen on (default: a free one)
  --open        open the URL in the default browser (xdg-open / open)
  -h, --help    show this help

Example:
  warpfold inspect ~/.claude/projects/my-project/3cfce0ff-….jsonl --open
  warpfold inspect --proxy http://127.0.0.1:8787 --open

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

/** The flags of `warpfold proxy`, which the launchers take too. */
const PROXY_FLAGS = `  --port N                 port to serve on (default 0: any free port; the URL is printed)
  --host H                 interface (default 127.0.0.1); any other host needs --token
  --token T                clients must send it as x-warpfold-token (or WARPFOLD_PROXY_TOKEN)
  --ceiling N              prompt ceiling in tokens (system, tools and messages); default: the
                           request's model budget, capped at 200,000; x-warpfold-ceiling overrides
  --model M                take the ceiling from this model's budget instead of each request's
  --anthropic-upstream URL default https://api.anthropic.com
  --openai-upstream URL    default https://api.openai.com
  --gemini-upstream URL    default https://generativelanguage.googleapis.com
  --state-dir DIR          sessions, ledger.jsonl and proxy.json (default ~/.warpfold)
  --shadow                 forward every request exactly as received; fold on the side and record
                           what would have been sent and saved
  --log-bodies             keep request bodies in the ledger (off: no body is kept)
  --max-warm-sessions N    sessions kept in memory (default 64); the others reload from the state dir
`;

export const PROXY_HELP = `Usage: warpfold proxy [options]

A fold gateway on one port: Anthropic Messages (/v1/messages, /v1/messages/count_tokens), OpenAI
Responses (/v1/responses) and Chat Completions (/v1/chat/completions), Gemini
(/v1beta/models/MODEL:generateContent and :streamGenerateContent). Each call's history is folded
under the ceiling; system prompt, tools, headers and signed items reach the provider byte for byte.
Every response carries x-warpfold-verdict; each call appends a line to ledger.jsonl, served at
GET /warpfold/sessions and /warpfold/sessions/ID; /warpfold/sessions/ID/history is a warm
session's last raw history ('warpfold inspect --proxy URL' shows it). See docs/proxy.md.

Options:
${PROXY_FLAGS}
Example:
  warpfold proxy --port 8787 --ceiling 40000
  ANTHROPIC_BASE_URL=http://127.0.0.1:8787 claude

${EXIT_CODES}
`;

export const LAUNCH_HELP = `Usage: warpfold claude|codex|gemini|pi [PROXY FLAGS] [-- CLIENT ARGS]

Runs the agent found on PATH pointed at a warpfold proxy: the one proxy.json in the state dir names
when it is alive, or a new one started in the background with the flags given. The agent's own
config files are never written: Claude Code gets ANTHROPIC_BASE_URL, Codex -c model_providers flags,
the Gemini CLI GOOGLE_GEMINI_BASE_URL, pi a temporary PI_CODING_AGENT_DIR. The agent's exit code is
warpfold's.

Proxy flags:
${PROXY_FLAGS}
Example:
  warpfold claude --ceiling 60000 -- -p "fix the failing test"

Exit codes: the agent's; 2 bad usage; 127 the agent is not on PATH.
`;
