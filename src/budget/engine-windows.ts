/*
 * Transports that cap the window below the model's own. Codex CLI (ChatGPT sign-in) serves
 * every model with a catalog context_window of 272,000 (the 400K GPT-5 window minus 128K of
 * output), and compacts at 95% of it; the Codex *API* path (`codex-api`) uses the model table.
 */
const engineWindowCaps: Readonly<Record<string, number>> = Object.freeze({
  codex: 272_000,
  'codex-cli': 272_000,
});

export function engineWindowCap(engine: string | undefined): number | null {
  if (engine === undefined) return null;
  return engineWindowCaps[engine.trim().toLowerCase()] ?? null;
}
