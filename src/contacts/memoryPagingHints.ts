import { BoundedMap } from '../shared/boundedMap.js';
import { HINT_TTL_SECONDS, MAX_POSITIONS, type PagingHints, type Position } from './pagingHints.js';

interface Entry {
  expiresAt: number;
  /** offset → last id */
  positions: Map<number, number>;
  total?: number;
}

/** Listings remembered per process; the oldest is forgotten first. */
const MAX_LISTINGS = 1000;

/**
 * Paging hints in process memory, for runs without REDIS_URL (whatever Redis keeps has an
 * in-process stand-in: README, REDIS_URL). Correct with several instances too, since keys
 * carry the Postgres-kept version; each instance just remembers only its own pages.
 */
export class MemoryPagingHints implements PagingHints {
  private readonly entries = new BoundedMap<string, Entry>(MAX_LISTINGS);

  constructor(private readonly now: () => number = Date.now) {}

  async nearest(key: string, offset: number): Promise<Position | undefined> {
    const entry = this.live(key);
    if (!entry) return undefined;
    let best: Position | undefined;
    for (const [at, lastId] of entry.positions) {
      if (at <= offset && (best === undefined || at > best.offset)) best = { offset: at, lastId };
    }
    return best;
  }

  async remember(key: string, position: Position): Promise<void> {
    const entry = this.entry(key);
    entry.positions.set(position.offset, position.lastId);
    if (entry.positions.size > MAX_POSITIONS) {
      entry.positions.delete(Math.min(...entry.positions.keys()));
    }
  }

  async total(key: string): Promise<number | undefined> {
    return this.live(key)?.total;
  }

  async rememberTotal(key: string, total: number): Promise<void> {
    this.entry(key).total = total;
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private entry(key: string): Entry {
    let entry = this.live(key);
    if (!entry) {
      entry = { expiresAt: 0, positions: new Map() };
      this.entries.set(key, entry);
    }
    entry.expiresAt = this.now() + HINT_TTL_SECONDS * 1000;
    return entry;
  }
}
