import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { KeyCache } from './keyCache.js';

/**
 * Cross-instance invalidation. Any change to an account (key, password, plan, block)
 * bumps the shared key epoch and is published on the channel:
 * - the epoch is what makes the change strict: every request's one Redis script reads it
 *   (limiters/requestCounter.ts) and a cache entry known current only under an older
 *   epoch is checked in Postgres again, so the old key fails on the very next request on
 *   every instance, even before the message is delivered;
 * - the message drops the account's entries at once, and the subscription's liveness
 *   decides whether the cache is used at all.
 * Not prefixed per deployment: a stray bump or message only costs a cache miss.
 */
export const ACCOUNT_CHANGED_CHANNEL = 'listkeeper:account-changed';
export const KEY_EPOCH_KEY = 'listkeeper:key-epoch';

/**
 * Call after the change is committed in Postgres. The message is `<accountId>:<epoch>`:
 * the epoch it carries tells instances it has been reached, so their next lookups can be
 * cached at once (KeyCache.observe). Instances also accept a bare `<accountId>`.
 */
export async function publishAccountChanged(redis: Redis, accountId: number): Promise<void> {
  const epoch = await redis.incr(KEY_EPOCH_KEY);
  await redis.publish(ACCOUNT_CHANGED_CHANNEL, `${accountId}:${epoch}`);
}

/**
 * Subscribes `cache` to the channel: entries are kept only while subscribed. Once
 * subscribed, the epoch is read on `redis` (the commands connection) so that the first
 * lookups can be cached too (a lookup is cached only under an epoch read before it).
 */
export function subscribeKeyCache(
  subscriber: Redis,
  redis: Redis,
  cache: KeyCache,
  log: Pick<Logger, 'warn'>,
): void {
  const readEpoch = () => {
    if (!cache.isSubscribed() || redis.status !== 'ready') return;
    const ticket = cache.ticket();
    redis.get(KEY_EPOCH_KEY).then(
      (epoch) => cache.observe(epoch ?? '0', ticket),
      // the first request's script reads it instead
      () => undefined,
    );
  };
  subscriber.on('message', (_channel: string, message: string) => {
    const match = /^(\d{1,15})(?::(\d{1,18}))?$/.exec(message);
    if (!match) return;
    cache.invalidateAccount(Number(match[1]));
    if (match[2] !== undefined) cache.observe(match[2], cache.ticket());
  });
  subscriber.on('ready', () => {
    subscriber.subscribe(ACCOUNT_CHANGED_CHANNEL).then(
      () => {
        cache.setSubscribed(true);
        readEpoch();
      },
      (err: unknown) => log.warn({ err }, 'key cache: subscribe failed; cache stays off'),
    );
  });
  // The subscriber may come back before the commands connection does.
  redis.on('ready', readEpoch);
  const drop = () => cache.setSubscribed(false);
  subscriber.on('close', drop);
  subscriber.on('end', drop);
  subscriber.on('error', drop);
}
