import { DEFAULT_PRICE_MODEL, resolveModelPrice, type ModelPrice } from '../../tokens/price-table.ts';
import type { CliOutput } from './cli-output.ts';

/**
 * The cache prices a session is costed at: `--price` when given, else the model the transcript
 * (or `--model`) names when the price table knows it, else the named default class, said once.
 * Never throws for an unknown model.
 */
export function priceForSession(
  explicit: string | undefined,
  model: string | undefined,
  output: CliOutput,
): ModelPrice {
  if (explicit !== undefined) return resolveModelPrice(explicit);
  if (model !== undefined) {
    try {
      return resolveModelPrice(model);
    } catch {
      output.noticeOnce(
        'price:unknown',
        `no cache prices known for "${model}" (nor for any other model not in the price table): costing at the ${describePrice(resolveModelPrice(DEFAULT_PRICE_MODEL))}; pass --price MODEL to choose another`,
      );
      return resolveModelPrice(DEFAULT_PRICE_MODEL);
    }
  }
  output.noticeOnce(
    'price:none',
    `no model recorded: costing at the ${describePrice(resolveModelPrice(DEFAULT_PRICE_MODEL))}; pass --price MODEL to choose another`,
  );
  return resolveModelPrice(DEFAULT_PRICE_MODEL);
}

export function describePrice(price: ModelPrice): string {
  return `${price.model} price class ($${price.inputPerMillion}/M input, cache reads ${price.cacheReadMultiplier}x, writes ${price.cacheWriteMultiplier}x)`;
}
