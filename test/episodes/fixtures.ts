import { episodeId } from '../../src/episodes/index.ts';
import type { Episode, EpisodeConclusion, EpisodeFile, EpisodeOutcome } from '../../src/episodes/index.ts';

export interface EpisodeSketch {
  readonly sessionId?: string;
  readonly start: number;
  readonly end?: number;
  readonly files?: readonly EpisodeFile[];
  readonly conclusions?: ReadonlyArray<Omit<EpisodeConclusion, 'messageIndex'> & { readonly messageIndex?: number }>;
  readonly outcome?: EpisodeOutcome;
  readonly endedAt?: number;
  readonly request?: string;
}

/** A hand-built episode shaped exactly like a derived one. */
export function makeEpisode(sketch: EpisodeSketch): Episode {
  const sessionId = sketch.sessionId ?? 'session-a';
  const end = sketch.end ?? sketch.start + 4;
  return {
    id: episodeId(sessionId, sketch.start),
    sessionId,
    request: sketch.request ?? `request at ${sketch.start}`,
    files: sketch.files ?? [],
    conclusions: (sketch.conclusions ?? []).map((conclusion, n) => ({
      ...conclusion,
      messageIndex: conclusion.messageIndex ?? sketch.start + 1 + n,
    })),
    outcome: sketch.outcome ?? 'succeeded',
    span: {
      startIndex: sketch.start,
      endIndex: end,
      ...(sketch.endedAt === undefined ? {} : { startedAt: sketch.endedAt - 1_000, endedAt: sketch.endedAt }),
    },
  };
}
