import type { Caller } from './caller.js';

interface Entry {
  caller: Caller;
  expiresAt: number;
}

/**
 * In-process cache of key hash → account, so an authenticated request usually costs no
 * Postgres round trip. It is only trusted while the Redis invalidation channel is
 * connected: a regenerated key must fail on the very next request on every instance,
 * and an instance that may have missed an invalidation must not answer from the cache.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private live = false;

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  /** Turned on when the invalidation subscription is ready, off (and cleared) when it drops. */
  setLive(live: boolean): void {
    this.live = live;
    if (!live) this.entries.clear();
  }

  get(hash: string, now: number): Caller | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.caller;
  }

  set(hash: string, caller: Caller, now: number): void {
    if (!this.live) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { caller, expiresAt: now + this.ttlMs });
  }

  invalidateAccount(accountId: number): void {
    for (const [hash, entry] of this.entries) {
      if (entry.caller.accountId === accountId) this.entries.delete(hash);
    }
  }
}
