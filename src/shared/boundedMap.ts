/**
 * A Map that holds at most `max` entries: setting one past the bound forgets the entry set
 * (or touched) longest ago. Every per-instance memory of the service (recent lists, totals,
 * layouts, caller keys, statement names) is one, so none grows with the keys clients send.
 * A Map iterates in insertion order, so the oldest entry is always the first key.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  private readonly max: number;

  /** `max` is at least 1; `onEvict` hears of each entry forgotten for room (not of deletes). */
  constructor(
    max: number,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {
    this.max = Math.max(1, max);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The entry, now counted as the newest (a least-recently-used read). */
  touch(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Sets the entry as the newest, forgetting the oldest if the map is full. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.max) {
      const [oldest, held] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.onEvict?.(oldest, held);
    }
    this.entries.set(key, value);
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Oldest first; an entry may be deleted while iterating. */
  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries.entries();
  }
}
