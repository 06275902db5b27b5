import { publishAccountChanged } from '../admission/invalidation.js';

/**
 * Tells running servers that an account changed, so their key caches drop it at once
 * (an old key must answer 401 at once, on every instance: docs/api-conventions.md, "Key
 * changes apply on the very next request, on every instance").
 *
 * A one-shot connection that gives up quickly: if Redis cannot be reached the change
 * still stands (it is in Postgres), and a server only caches keys while its own Redis
 * subscription is live, so the caller warns instead of failing.
 */
export async function notifyServersOfAccountChange(
  redisUrl: string,
  accountId: number,
): Promise<void> {
  // Loaded here, not at the top: most CLI commands never reach Redis, and ioredis is a
  // noticeable share of a short command's start-up.
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    commandTimeout: 2000,
    retryStrategy: () => null,
    connectionName: 'listkeeper-cli',
  });
  // The 'error' event has the cause (ECONNREFUSED…); the rejection only says the connection closed.
  let cause: unknown;
  redis.on('error', (err: unknown) => {
    cause ??= err;
  });
  try {
    await redis.connect();
    await publishAccountChanged(redis, accountId);
  } catch (err) {
    throw cause ?? err;
  } finally {
    redis.disconnect();
  }
}
