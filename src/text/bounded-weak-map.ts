/**
 * A memo keyed by objects that holds a bounded amount, and nothing whose key is gone. Entries
 * live in two generations: new ones go to the young map; when it has taken `capacity` units of
 * weight (one per entry unless the caller weighs them) it becomes the old map, the previous old
 * one is dropped whole, and a fresh young map starts. A hit in the old map moves the entry back
 * to the young one, so what folds keep reading stays while what they stopped reading (messages
 * folded long ago) is let go. At most about twice `capacity` stays alive.
 *
 * Only for values that are a pure function of the key: a dropped entry is worked out again, the
 * same, when it is next asked for. O(1) per call, and no strong reference to any key, so a cache
 * shared by many sessions still frees a session's entries with it.
 */
export class BoundedWeakMap<Key extends object, Value> {
  private young = new WeakMap<Key, { value: Value; weight: number }>();
  private old = new WeakMap<Key, { value: Value; weight: number }>();
  /** Weight the young map has taken (some keys may have died since: the bound is an upper one). */
  private youngWeight = 0;

  constructor(private readonly capacity: number) {}

  get(key: Key): Value | undefined {
    const entry = this.young.get(key);
    if (entry !== undefined) return entry.value;
    const aged = this.old.get(key);
    if (aged === undefined) return undefined;
    this.old.delete(key);
    this.set(key, aged.value, aged.weight);
    return aged.value;
  }

  /** Stores `value`; `weight` is its share of the capacity (its size in whatever unit the capacity counts). */
  set(key: Key, value: Value, weight = 1): void {
    const previous = this.young.get(key);
    if (previous) this.youngWeight -= previous.weight;
    else if (this.youngWeight + weight > this.capacity && this.youngWeight > 0) {
      this.old = this.young;
      this.young = new WeakMap();
      this.youngWeight = 0;
    }
    this.youngWeight += weight;
    this.young.set(key, { value, weight });
  }
}
