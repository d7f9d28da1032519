import type { TokenCounter } from './transcript.ts';

/** Tokens of a synthetic message (seed, recall card, acknowledgement) as every size decision counts it: role line, text, break. */
export function syntheticMessageTokens(countTokens: TokenCounter, role: string, text: string): number {
  return countTokens(`<${role}>\n${text}\n`);
}
