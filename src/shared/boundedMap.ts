/**
 * A Map bounded by what its entries weigh (1 each by default, so a count): setting one past
 * the bound forgets the entries set (or touched) longest ago until the rest fit. Every
 * per-instance memory of the service (recent lists, totals, pages by their rows, layouts,
 * caller keys, statement names) is one, so none grows with the keys clients send. A Map
 * iterates in insertion order, so the oldest entry is always the first key.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();
  private readonly onEvict?: (key: K, value: V) => void;
  private readonly weigh: (value: V) => number;
  private held = 0;

  /**
   * `onEvict` hears of each entry forgotten for room (not of deletes). The entry just set is
   * never forgotten for room, so one that alone weighs more than `max` stays until the next.
   */
  constructor(
    private readonly max: number,
    options: { onEvict?: (key: K, value: V) => void; weigh?: (value: V) => number } = {},
  ) {
    this.onEvict = options.onEvict;
    this.weigh = options.weigh ?? (() => 1);
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
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key)!;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Sets the entry as the newest, forgetting the oldest ones while the map weighs too much. */
  set(key: K, value: V): void {
    this.delete(key);
    this.entries.set(key, value);
    this.held += this.weigh(value);
    for (const [oldest, held] of this.entries) {
      if (this.held <= this.max || oldest === key) break;
      this.entries.delete(oldest);
      this.held -= this.weigh(held);
      this.onEvict?.(oldest, held);
    }
  }

  delete(key: K): boolean {
    if (!this.entries.has(key)) return false;
    this.held -= this.weigh(this.entries.get(key)!);
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  /** Oldest first; an entry may be deleted while iterating. */
  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries.entries();
  }
}
