import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { KeyCache } from './keyCache.js';

/**
 * Cross-instance channel: any change to an account (key, password, plan, block) is
 * published here and every instance drops its cached entries for that account.
 * Not prefixed per deployment: a stray message only costs a cache miss.
 */
export const ACCOUNT_CHANGED_CHANNEL = 'listkeeper:account-changed';

export async function publishAccountChanged(redis: Redis, accountId: number): Promise<void> {
  await redis.publish(ACCOUNT_CHANGED_CHANNEL, String(accountId));
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
