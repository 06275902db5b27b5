import type { Caller } from './caller.js';

interface Entry {
  caller: Caller;
  /** the shared key epoch (invalidation.ts) the entry was read under */
  epoch: string;
  expiresAt: number;
}

/** What a lookup must carry from before it started to the moment it may be cached. */
export interface CacheTicket {
  generation: number;
  epoch: string;
}

/**
 * In-process cache of key hash → account, so an authenticated request usually costs no
 * Postgres round trip. A regenerated key must fail on the very next request on every
 * instance, so an entry is only used while (a) the Redis invalidation subscription is up
 * and (b) the shared key epoch in Redis, read on every request, is the one the entry was
 * read under. Pub/sub alone is not enough: its message can arrive after the next request.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private live = false;
  /**
   * Bumped by every invalidation and every change of liveness. A lookup read from Postgres
   * before an invalidation arrived may hold the old key; it is cached only if the
   * generation it started in is still current, or the stale key would live on for a TTL.
   */
  private generation = 0;

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  /** Turned on when the invalidation subscription is ready, off (and cleared) when it drops. */
  setLive(live: boolean): void {
    this.live = live;
    this.generation++;
    if (!live) this.entries.clear();
  }

  isLive(): boolean {
    return this.live;
  }

  /** Take before a lookup (with the epoch read before it); pass to `set` after it. */
  ticket(epoch: string): CacheTicket {
    return { generation: this.generation, epoch };
  }

  get(hash: string, now: number, epoch: string): Caller | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= now || entry.epoch !== epoch) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.caller;
  }

  set(hash: string, caller: Caller, now: number, ticket: CacheTicket): void {
    if (!this.live || ticket.generation !== this.generation) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { caller, epoch: ticket.epoch, expiresAt: now + this.ttlMs });
  }

  /** Whether an entry is held for the hash (tests and diagnostics; no validity check). */
  has(hash: string): boolean {
    return this.entries.has(hash);
  }

  invalidateAccount(accountId: number): void {
    this.generation++;
    for (const [hash, entry] of this.entries) {
      if (entry.caller.accountId === accountId) this.entries.delete(hash);
    }
  }
}
