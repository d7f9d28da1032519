import { DEFAULT_PRICE_MODEL, findModelPrice, type ModelPrice } from '../../tokens/price-table.ts';
import { UsageError } from './usage-error.ts';

/**
 * The prices a session is costed at: `--price` when given, else the model the transcript (or
 * `--model`) names when the model table prices it, else none: an unknown model is shown unpriced,
 * never costed at another model's rates.
 */
export function priceForSession(explicit: ModelPrice | undefined, model: string | undefined): ModelPrice | null {
  if (explicit !== undefined) return explicit;
  return model === undefined ? null : findModelPrice(model);
}

/** `--price ID`: a model the table prices, or the reference scorer's `sonnet-class`. */
export function priceOption(id: string | undefined, command: string): ModelPrice | undefined {
  if (id === undefined) return undefined;
  const price = findModelPrice(id);
  if (price === null)
    throw new UsageError(
      `--price: no price for "${id}"; use a priced model id (claude-opus-4-5, gpt-5-codex, gemini-2.5-pro, …) or ${DEFAULT_PRICE_MODEL}`,
      command,
    );
  return price;
}

/** One line naming a price and where it comes from, for the report's notes. */
export function describePrice(price: ModelPrice): string {
  const cache = `cache read $${+(price.inputPerMillion * price.cacheReadMultiplier).toFixed(4)}, write $${+(price.inputPerMillion * price.cacheWriteMultiplier).toFixed(4)} (5m) / $${+(price.inputPerMillion * price.cacheWriteOneHourMultiplier).toFixed(4)} (1h)`;
  const origin = price.source ? `${price.source}, checked ${price.checked}` : "the reference scorer's price class";
  return `${price.model}: $${price.inputPerMillion} in, $${price.outputPerMillion} out, ${cache} per million (${origin})`;
}
