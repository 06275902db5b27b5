import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * ioredis set to fail fast: no offline queue and no per-command retries, so a Redis
 * outage costs a request one quick error (and the in-process fallback), never a wait.
 */
export function connectRedis(url: string, log: Pick<Logger, 'warn'>, name: string): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 1000),
    connectionName: name,
  });
  let reported = false;
  redis.on('error', (err) => {
    if (!reported) log.warn({ err: err.message }, `redis (${name}) connection error`);
    reported = true;
  });
  redis.on('ready', () => {
    reported = false;
  });
  return redis;
}
