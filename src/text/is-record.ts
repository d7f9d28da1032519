/** A plain object (not null, not an array): what provider messages, blocks and arguments are. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
