import { BoundedMap } from '../shared/boundedMap.js';
import type { Caller } from './caller.js';

export interface CacheEntry {
  caller: Caller;
  /** the shared key epoch (invalidation.ts) under which the entry is known to be current */
  epoch: string;
  expiresAt: number;
}

/** Taken when a request starts; decides later whether what it read may be cached. */
export interface CacheTicket {
  generation: number;
  /** an epoch observed before the request's Postgres lookup (undefined: none yet) */
  epoch: string | undefined;
}

/**
 * In-process cache of key hash → account, so an authenticated request usually costs no
 * Postgres round trip. A regenerated key must fail on the very next request on every
 * instance, so an entry is only used while the Redis invalidation subscription is up, and
 * each request compares the entry's epoch with the shared key epoch its own Redis script
 * read (authenticate.ts, redisAdmission.ts). Pub/sub alone is not enough: its message can
 * arrive after the next request.
 */
export class KeyCache {
  private readonly entries: BoundedMap<string, CacheEntry>;
  private subscribed = false;
  /** the highest epoch read from Redis since subscribing (by requests, messages, the start) */
  private lastEpoch: string | undefined;
  /**
   * Bumped by every change of subscription. The epoch restarts from 0 with an emptied
   * Redis, so nothing read before a change of subscription (entries, the last epoch,
   * lookups in flight) may be trusted after it.
   */
  private generation = 0;

  constructor(
    private readonly ttlMs = 60_000,
    maxEntries = 10_000,
  ) {
    this.entries = new BoundedMap(maxEntries);
  }

  /** On when the invalidation subscription is ready, off (and cleared) when it drops. */
  setSubscribed(subscribed: boolean): void {
    this.subscribed = subscribed;
    this.generation++;
    this.lastEpoch = undefined;
    this.entries.clear();
  }

  isSubscribed(): boolean {
    return this.subscribed;
  }

  /** Live: subscribed and an epoch observed, so a miss can be cached (reported by /readyz). */
  isLive(): boolean {
    return this.subscribed && this.lastEpoch !== undefined;
  }

  /** Take when a request starts, before its lookup. */
  ticket(): CacheTicket {
    return { generation: this.generation, epoch: this.lastEpoch };
  }

  /**
   * Records an epoch read from Redis (by a request, or announced by a message) since
   * `ticket` was taken. The highest wins: any epoch seen serves as "seen before" for a
   * later lookup, and the highest is the one the next script will most likely read.
   */
  observe(epoch: string, ticket: CacheTicket): void {
    if (!this.subscribed || ticket.generation !== this.generation) return;
    if (this.lastEpoch !== undefined && Number(epoch) < Number(this.lastEpoch)) return;
    this.lastEpoch = epoch;
  }

  /** The entry for the hash, unchecked against the epoch: the request's script checks it. */
  entry(hash: string, now: number): CacheEntry | undefined {
    if (!this.subscribed) return undefined;
    const entry = this.entries.get(hash);
    if (entry && entry.expiresAt <= now) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry;
  }

  /**
   * Caches `caller` as current under `ticket.epoch`, which must have been read from Redis
   * before the lookup that found `caller` began (the operator commits the change in
   * Postgres, then bumps the epoch: a change the lookup missed bumps it past that epoch).
   */
  set(hash: string, caller: Caller, now: number, ticket: CacheTicket): void {
    if (!this.subscribed || ticket.generation !== this.generation) return;
    if (ticket.epoch === undefined) return;
    this.entries.set(hash, { caller, epoch: ticket.epoch, expiresAt: now + this.ttlMs });
  }

  drop(hash: string): void {
    this.entries.delete(hash);
  }

  /** Whether an entry is held for the hash (tests and diagnostics; no validity check). */
  has(hash: string): boolean {
    return this.entries.has(hash);
  }

  /**
   * Drops the account's entries early. Lookups in flight need no fencing here: the epoch
   * already decides whether what they read may be cached (redisAdmission.ts).
   */
  invalidateAccount(accountId: number): void {
    for (const [hash, entry] of this.entries) {
      if (entry.caller.accountId === accountId) this.entries.delete(hash);
    }
  }
}
