/**
 * The episode model: one sealed stretch of an agent's work, kept across sessions.
 *
 * - An episode is one user turn, cut again after a 🏁 verdict when the turn goes on to new work
 *   (a verdict closes a coherent burst). Messages before the first user text count as a turn of
 *   their own when they hold any assistant or tool activity.
 * - `id` hashes the session id and the span's *start* only. A growing history re-derived at every
 *   epoch therefore updates its still-open episode in place instead of minting an overlapping
 *   copy per epoch.
 * - `files`: every file a tool call touched, normalised (`./` stripped, `//` collapsed), in order
 *   of first touch, each once with its strongest touch: `created` (a whole-file write to a path
 *   the session had not touched before), `edited` (any other write: edits, `sed -i`, `>>`,
 *   rewriting a known file), else `read`.
 * - `conclusions`: the agent's own words, verbatim, never paraphrased:
 *     · every assistant message whose register is settled per `classifyAssistantRegister`
 *       (🏁 verdict, ⚠️ hazard), with or without tool calls;
 *     · plus the turn's final answer: the message that ends the turn (an assistant message with no
 *       tool calls, last in its span) when it opens with no glyph at all. Most agents never write
 *       glyphs, and the answer that ends a turn is the one statement they stand behind.
 *   Transient registers (🔍 in progress, ▶️ executing, ❓ blocked) never become conclusions, not even
 *   as the final message. Text longer than `MAX_CONCLUSION_CHARS` keeps its head and a marker.
 *   Each conclusion is *about* the paths its text names (matched to the episode's files); when it
 *   names none, about the files the episode changed, else every file it touched.
 * - `outcome`:
 *     · `succeeded`: closed by a 🏁 verdict, or by a final answer after a clean last tool result;
 *     · `failed`: the closing message is ❓ blocked, or the final answer follows a failing tool result;
 *     · `abandoned`: real user text arrived while the agent was still mid-work (no closing message);
 *     · `open`: the history ends before the agent closed the episode.
 * - Supersession (applied by `recordEpisodes`): a newer episode that changes a file (edited or
 *   created) or concludes anything about it supersedes older verdicts and final answers about that
 *   file. Hazards go stale only when a newer hazard about the same file restates the invariant:
 *   an invariant is not disproved by editing the code it guards or by a verdict about something
 *   else in it. Reading a file supersedes nothing. A conclusion keeps the id of the nearest newer
 *   episode that superseded it; an episode whose conclusions are all superseded carries
 *   `supersededBy` too.
 * - "Newer": within a session, a later span start; across sessions, a later known time. Episodes
 *   of different sessions without timestamps are never ordered, so never supersede each other.
 *
 * Every value is plain JSON (strings, numbers, arrays, objects), so any key-value backend can
 * store an episode as one document under its id.
 */

export type EpisodeOutcome = 'succeeded' | 'failed' | 'abandoned' | 'open';

export type FileTouch = 'read' | 'edited' | 'created';

export interface EpisodeFile {
  readonly path: string;
  readonly how: FileTouch;
}

/** `answer` is an unglyphed final message; the others name the settled register. */
export type ConclusionKind = 'verdict' | 'hazard' | 'answer';

export interface EpisodeConclusion {
  readonly kind: ConclusionKind;
  /** The assistant message, verbatim (glyph included). */
  readonly text: string;
  readonly messageIndex: number;
  /** Normalised paths the conclusion is about. */
  readonly paths: readonly string[];
  /** Id of the newer episode that made it stale. */
  readonly supersededBy?: string;
}

export interface EpisodeSpan {
  readonly startIndex: number;
  /** Exclusive. */
  readonly endIndex: number;
  /** Milliseconds, from the host's timestamps. */
  readonly startedAt?: number;
  readonly endedAt?: number;
}

export interface Episode {
  readonly id: string;
  readonly sessionId: string;
  /** The user text that opened the episode (head only), '' when work began without one. */
  readonly request: string;
  readonly files: readonly EpisodeFile[];
  readonly conclusions: readonly EpisodeConclusion[];
  readonly outcome: EpisodeOutcome;
  readonly span: EpisodeSpan;
  /** Set when every conclusion has been superseded: the episode whose work did it. */
  readonly supersededBy?: string;
}

export const MAX_CONCLUSION_CHARS = 2_000;
export const MAX_REQUEST_CHARS = 500;
