import { describe, expect, it } from 'vitest';
import type { Caller } from '../../src/admission/caller.js';
import { KeyCache } from '../../src/admission/keyCache.js';

const caller: Caller = {
  accountId: 7,
  email: 'a@example.test',
  name: 'A',
  plan: 'pro',
  blocked: false,
  createdAt: new Date(0),
};

function subscribedAt(epoch: string): KeyCache {
  const cache = new KeyCache(60_000);
  cache.setSubscribed(true);
  cache.observe(epoch, cache.ticket());
  return cache;
}

describe('KeyCache (docs/api-conventions.md: one round trip per request)', () => {
  it('is live only once subscribed and an epoch is known', () => {
    const cache = new KeyCache();
    expect(cache.isLive()).toBe(false);
    cache.setSubscribed(true);
    expect(cache.isLive()).toBe(false);
    cache.observe('3', cache.ticket());
    expect(cache.isLive()).toBe(true);
  });

  it('caches a lookup under the epoch seen before it, and hands it back with that epoch', () => {
    const cache = subscribedAt('3');
    const ticket = cache.ticket();
    cache.set('h', caller, 0, ticket);
    expect(cache.entry('h', 1)).toMatchObject({ caller, epoch: '3' });
    expect(cache.entry('h', 60_000)).toBeUndefined();
  });

  it('caches nothing while no epoch has been seen', () => {
    const cache = new KeyCache();
    cache.setSubscribed(true);
    cache.set('h', caller, 0, cache.ticket());
    expect(cache.has('h')).toBe(false);
  });

  it('refuses a lookup begun before the subscription changed, and forgets the epoch', () => {
    const cache = subscribedAt('3');
    const ticket = cache.ticket();
    cache.setSubscribed(false);
    cache.setSubscribed(true);
    cache.set('h', caller, 0, ticket);
    expect(cache.has('h')).toBe(false);
    expect(cache.ticket().epoch).toBeUndefined();
    cache.observe('9', ticket);
    expect(cache.isLive()).toBe(false);
  });

  it('keeps the highest epoch seen, whatever order the observations arrive in', () => {
    const cache = subscribedAt('5');
    cache.observe('4', cache.ticket());
    expect(cache.ticket().epoch).toBe('5');
    cache.observe('12', cache.ticket());
    expect(cache.ticket().epoch).toBe('12');
  });

  it("drops an account's entries when it is invalidated, and only that account's", () => {
    const cache = subscribedAt('1');
    cache.set('h', caller, 0, cache.ticket());
    cache.set('other', { ...caller, accountId: 8 }, 0, cache.ticket());
    cache.invalidateAccount(caller.accountId);
    expect([cache.has('h'), cache.has('other')]).toEqual([false, true]);
  });

  it('holds at most maxEntries, evicting the oldest', () => {
    const cache = new KeyCache(60_000, 2);
    cache.setSubscribed(true);
    cache.observe('1', cache.ticket());
    for (const hash of ['a', 'b', 'c']) cache.set(hash, caller, 0, cache.ticket());
    expect(['a', 'b', 'c'].map((h) => cache.has(h))).toEqual([false, true, true]);
  });
});
