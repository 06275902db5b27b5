import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AppDeps } from './app.js';
import { createKeyLookup } from './auth/accountRepository.js';
import { createAuthenticator } from './auth/authenticate.js';
import { failedAttemptsIn } from './auth/failedAttempts.js';
import { keyEpochReader, subscribeKeyCache } from './auth/invalidation.js';
import { KeyCache } from './auth/keyCache.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { createFieldCipher } from './lists/encryption/cipher.js';
import { FallbackLimiter } from './ratelimit/fallbackLimiter.js';
import type { RateLimiter } from './ratelimit/limiter.js';
import { MemoryLimiter } from './ratelimit/memoryLimiter.js';
import { connectRedis } from './ratelimit/redisClient.js';
import { RedisLimiter } from './ratelimit/redisLimiter.js';

export interface Runtime {
  deps: AppDeps;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  redisPrefix?: string;
  clock?: () => Date;
}

/** Wires the app's dependencies from config and an open database. */
export function createRuntime(
  config: Config,
  database: DatabaseHandle,
  log: Logger,
  options: RuntimeOptions = {},
): Runtime {
  if (!config.encryptionKey) throw new Error('ENCRYPTION_KEY is not set');
  const clock = options.clock ?? (() => new Date());
  const redisPrefix = options.redisPrefix ?? 'lk:';
  const keyCache = new KeyCache();

  let redis: Redis | undefined;
  let subscriber: Redis | undefined;
  if (config.redisUrl) {
    redis = connectRedis(config.redisUrl, log, 'listkeeper');
    subscriber = connectRedis(config.redisUrl, log, 'listkeeper-sub');
    subscribeKeyCache(subscriber, keyCache, log);
  }
  /** Shared through Redis when there is one (falling back in-process), else in-process. */
  const limiterFor = (limit: number, name: string): RateLimiter =>
    redis
      ? new FallbackLimiter(
          redis,
          new RedisLimiter(redis, limit, redisPrefix),
          new MemoryLimiter(limit),
          log,
          name,
        )
      : new MemoryLimiter(limit);
  const limiter = limiterFor(config.rateLimitPerMinute, 'rate limiter');

  const deps: AppDeps = {
    config,
    db: database.db,
    pool: database.pool,
    redis,
    redisPrefix,
    authenticate: createAuthenticator(
      createKeyLookup(database.db),
      keyCache,
      () => clock().getTime(),
      {
        readEpoch: redis ? keyEpochReader(redis) : undefined,
        failedAttempts: failedAttemptsIn(
          limiterFor(config.failedAuthPerMinute, 'failed-attempt limiter'),
        ),
      },
    ),
    keyCache,
    limiter,
    clock,
    cipher: createFieldCipher(config.encryptionKey, config.encryptionOldKeys),
  };
  return {
    deps,
    async close() {
      subscriber?.disconnect();
      redis?.disconnect();
      await database.close();
    },
  };
}
