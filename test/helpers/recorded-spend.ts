import { readFileSync } from 'node:fs';

/** Dollars per million tokens, as a pricing page lists them. */
export interface PagePrices {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWriteFiveMinutes: number;
  readonly cacheWriteOneHour: number;
}

/** Claude Opus 4.5 on platform.claude.com/docs/en/about-claude/pricing. */
export const OPUS_4_5: PagePrices = {
  input: 5,
  output: 25,
  cacheRead: 0.5,
  cacheWriteFiveMinutes: 6.25,
  cacheWriteOneHour: 10,
};

/**
 * What a Claude Code JSONL's recorded usage costs, computed apart from warpfold: each message id
 * once (Claude Code repeats the call's usage on every line of the call), writes by lifetime.
 */
export function recordedSpend(path: string, prices: PagePrices): { dollars: number; peakInput: number; calls: number } {
  const usages = new Map<string, Record<string, number & Record<string, number>>>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const record = JSON.parse(line);
    if (record.type === 'assistant' && record.message?.usage) usages.set(record.message.id, record.message.usage);
  }
  let dollars = 0;
  let peakInput = 0;
  for (const usage of usages.values()) {
    const oneHour = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
    const fiveMinutes = usage.cache_creation_input_tokens - oneHour;
    dollars +=
      (usage.input_tokens * prices.input +
        usage.cache_read_input_tokens * prices.cacheRead +
        fiveMinutes * prices.cacheWriteFiveMinutes +
        oneHour * prices.cacheWriteOneHour +
        usage.output_tokens * prices.output) /
      1e6;
    peakInput = Math.max(
      peakInput,
      usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens,
    );
  }
  return { dollars, peakInput, calls: usages.size };
}
