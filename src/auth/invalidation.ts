import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { EpochReader } from './authenticate.js';
import type { KeyCache } from './keyCache.js';

/**
 * Cross-instance invalidation. Any change to an account (key, password, plan, block)
 * bumps the shared key epoch and is published on the channel:
 * - the epoch is what makes the change strict: every request reads it (one GET) and a
 *   cache entry read under an older epoch is not used, so the old key fails on the very
 *   next request on every instance, even before the message is delivered;
 * - the message drops the account's entries at once, and the subscription's liveness
 *   decides whether the cache is used at all.
 * Not prefixed per deployment: a stray bump or message only costs a cache miss.
 */
export const ACCOUNT_CHANGED_CHANNEL = 'listkeeper:account-changed';
export const KEY_EPOCH_KEY = 'listkeeper:key-epoch';

export async function publishAccountChanged(redis: Redis, accountId: number): Promise<void> {
  await redis.incr(KEY_EPOCH_KEY);
  await redis.publish(ACCOUNT_CHANGED_CHANNEL, String(accountId));
}

/**
 * Reads the epoch; undefined while Redis does not answer (then the cache is bypassed).
 * After a failed read it waits a second before trying again, so a stalled Redis (one that
 * keeps the connection but times commands out) costs one request a timeout, not each.
 */
export function keyEpochReader(redis: Redis, retryIntervalMs = 1000): EpochReader {
  let retryAfter = 0;
  return async () => {
    if (redis.status !== 'ready' || Date.now() < retryAfter) return undefined;
    try {
      return (await redis.get(KEY_EPOCH_KEY)) ?? '0';
    } catch {
      retryAfter = Date.now() + retryIntervalMs;
      return undefined;
    }
  };
}

/** Subscribes `cache` to the channel; the cache is live only while subscribed. */
export function subscribeKeyCache(
  subscriber: Redis,
  cache: KeyCache,
  log: Pick<Logger, 'warn'>,
): void {
  subscriber.on('message', (_channel: string, message: string) => {
    const id = Number(message);
    if (Number.isSafeInteger(id)) cache.invalidateAccount(id);
  });
  subscriber.on('ready', () => {
    subscriber.subscribe(ACCOUNT_CHANGED_CHANNEL).then(
      () => cache.setLive(true),
      (err: unknown) => log.warn({ err }, 'key cache: subscribe failed; cache stays off'),
    );
  });
  const drop = () => cache.setLive(false);
  subscriber.on('close', drop);
  subscriber.on('end', drop);
  subscriber.on('error', drop);
}
