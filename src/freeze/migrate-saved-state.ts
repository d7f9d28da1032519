/**
 * Migrations from every earlier saved-state version to the current one. Each step takes the
 * raw JSON object of its version and returns the next version's `state` content; validation
 * runs on the result, so a step only reshapes.
 */

/**
 * Version 1 (warpfold 0.1.0) stored the engine's internal state object as it was:
 * `{ version: 1, configFingerprint, dialect, headEnd, seed, bands, coveredEnd, coveredFingerprint,
 * clipped: { [index]: { maxChars, tokens } }, lastCallAt, lastViewTokens, calibration, epochs,
 * hotReuses, calls, seenLength, cards, recall: { version: 1, calls, resident } | null }`, with no
 * format name and no digest. Its fields map one to one; it recorded no counter probe.
 */
export function migrateVersion1(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const clipped =
    value.clipped !== null && typeof value.clipped === 'object' && !Array.isArray(value.clipped)
      ? (value.clipped as Record<string, unknown>)
      : value.clipped;
  const recall = value.recall as Record<string, unknown> | null | undefined;
  return {
    configFingerprint: value.configFingerprint,
    counterProbe: null,
    dialect: value.dialect,
    history: {
      headEnd: value.headEnd,
      coveredEnd: value.coveredEnd,
      coveredFingerprint: value.coveredFingerprint,
      seenLength: value.seenLength,
    },
    seed: value.seed,
    bands: value.bands,
    clipped:
      clipped !== null && typeof clipped === 'object'
        ? Object.entries(clipped).map(([index, clip]) => ({
            ...(clip !== null && typeof clip === 'object' ? clip : { maxChars: clip }),
            index: /^\d+$/.test(index) ? Number(index) : index,
          }))
        : clipped,
    cards: value.cards,
    recall:
      recall !== null && typeof recall === 'object'
        ? { calls: recall.calls, resident: recall.resident }
        : (recall ?? null),
    calibration: value.calibration,
    counters: {
      lastCallAt: value.lastCallAt,
      lastViewTokens: value.lastViewTokens,
      epochs: value.epochs,
      hotReuses: value.hotReuses,
      calls: value.calls,
    },
  };
}

/**
 * Version 2 is version 3 without band origins: its bands re-fold from their raw messages, as
 * every band did before origins existed. Nothing to reshape.
 */
export function migrateVersion2(value: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  return value;
}
