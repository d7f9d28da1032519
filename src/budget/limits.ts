/** Below this no fold can leave room for a reply; such a window is rejected, not degraded. */
export const MINIMUM_CONTEXT_WINDOW_TOKENS = 4_096;
/** An explicit pressure ceiling below this leaves no sawtooth to work in. */
export const MINIMUM_PRESSURE_CEILING_TOKENS = 1_000;
