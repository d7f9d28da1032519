/** Sets an own data property, even one named `__proto__`: a plain assignment would set the prototype instead. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
