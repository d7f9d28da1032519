/** Every string anywhere in `value` (a tool call's input, a provider message), depth first. */
export function stringLeaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringLeaves(item, out);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) stringLeaves(item, out);
  return out;
}
