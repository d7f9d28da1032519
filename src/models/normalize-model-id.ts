// Cloud vendors prefix ids: Bedrock `us.anthropic.claude-...`, `openai.gpt-...`.
const vendorDotPrefix =
  /^(?:(?:us|eu|apac|global)\.)?(?:anthropic|openai|google|mistral|deepseek|qwen|moonshot|moonshotai|minimax|zai|xai)\./u;
// Version pins after the id: Vertex `claude-sonnet-4@20250514`, Bedrock `...-v1:0`.
const versionPin = /@.*$|-v\d+:\d+$/u;
const oneMillionMarker = /(?:\[1m\]|[-_:]1m)$/u;

export interface NormalizedModelId {
  id: string;
  /** The id without a trailing `[1m]` / `-1m` marker. */
  unmarkedId: string;
  /** The id asked for the 1M-context variant. */
  oneMillionVariant: boolean;
}

/** Lowercase, drop router paths (`openrouter/anthropic/...`, `models/gemini-...`) and vendor pins. */
export function normalizeModelId(model: string): NormalizedModelId {
  let id = model.trim().toLowerCase();
  id = id.slice(id.lastIndexOf('/') + 1);
  id = id.replace(vendorDotPrefix, '').replace(versionPin, '');
  const oneMillionVariant = oneMillionMarker.test(id);
  return { id, unmarkedId: id.replace(oneMillionMarker, ''), oneMillionVariant };
}
