import { digest64 } from '../text/digest.ts';
import { stableJson } from '../text/stable-json.ts';
import type { FoldFreezeState } from './freeze-state.ts';
import {
  SAVED_SESSION_FORMAT,
  SAVED_SESSION_VERSION,
  type SavedFoldSession,
  type SavedFoldState,
} from './saved-format.ts';

/** The saved form of an engine state: fresh plain objects, nothing shared with the engine's. */
export function encodeSavedState(state: FoldFreezeState, counterProbe: number | null): SavedFoldSession {
  const saved: SavedFoldState = {
    configFingerprint: state.configFingerprint,
    counterProbe,
    dialect: state.dialect,
    history: {
      headEnd: state.headEnd,
      coveredEnd: state.coveredEnd,
      coveredFingerprint: state.coveredFingerprint,
      seenLength: state.seenLength,
    },
    seed: state.seed ? { text: state.seed.text, tokens: state.seed.tokens, end: state.seed.end } : null,
    bands: state.bands.map((band) => ({
      start: band.start,
      end: band.end,
      text: band.text,
      tokens: band.tokens,
      lineKeys: [...band.lineKeys],
      estimateScale: band.estimateScale,
      ...(band.origins
        ? {
            origins: {
              firstLine: band.origins.firstLine,
              lines: band.origins.lines.map(({ messageIndex, kind, call }) =>
                call === undefined ? { messageIndex, kind } : { messageIndex, kind, call },
              ),
              omitted: band.origins.omitted.map(([name, count]) => [name, count] as const),
              closet: band.origins.closet.map(({ value, kind, messageIndex }) => ({ value, kind, messageIndex })),
            },
          }
        : {}),
    })),
    clipped: Object.entries(state.clipped)
      .map(([index, clip]) => ({ index: Number(index), maxChars: clip.maxChars, tokens: clip.tokens }))
      .sort((a, b) => a.index - b.index),
    cards: state.cards.map((card) => ({
      afterIndex: card.afterIndex,
      key: card.key,
      text: card.text,
      tokens: card.tokens,
    })),
    recall: state.recall
      ? {
          calls: state.recall.calls,
          resident: state.recall.resident.map((item) => ({
            key: item.key,
            entryId: item.entryId,
            call: item.call,
            ...(item.at === undefined ? {} : { at: item.at }),
          })),
        }
      : null,
    calibration: {
      factor: state.calibration.factor,
      overhead: state.calibration.overhead,
      anchor: state.calibration.anchor ? [state.calibration.anchor[0], state.calibration.anchor[1]] : null,
    },
    counters: {
      lastCallAt: state.lastCallAt,
      lastViewTokens: state.lastViewTokens,
      epochs: state.epochs,
      hotReuses: state.hotReuses,
      calls: state.calls,
    },
  };
  return {
    format: SAVED_SESSION_FORMAT,
    version: SAVED_SESSION_VERSION,
    digest: savedStateDigest(saved),
    state: saved,
  };
}

/** The integrity digest of a saved state's content: key order does not matter. */
export function savedStateDigest(state: unknown): string {
  return digest64(stableJson(state));
}
