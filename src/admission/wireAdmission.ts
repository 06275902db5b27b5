import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../infra/db/client.js';
import { FallbackLimiter } from './limiters/fallbackLimiter.js';
import type { RateLimiter } from './limiters/limiter.js';
import { MemoryLimiter } from './limiters/memoryLimiter.js';
import { RedisGate } from './limiters/redisGate.js';
import { RedisLimiter } from './limiters/redisLimiter.js';
import { RequestCounter } from './limiters/requestCounter.js';
import { createKeyLookup } from './accountRepository.js';
import {
  createAuthenticator,
  type Authenticator,
  type AuthenticatorParts,
  type KeyLookup,
} from './authenticate.js';
import { failedAttemptsIn } from './failedAttempts.js';
import { KEY_EPOCH_KEY, subscribeKeyCache } from './invalidation.js';
import { KeyCache } from './keyCache.js';

export interface AdmissionWiring {
  config: Config;
  db: Database;
  log: Logger;
  now: () => number;
  /** the commands connection and the invalidation subscriber; absent without REDIS_URL */
  redis?: { commands: Redis; subscriber: Redis; prefix: string };
  /** wraps the Postgres key lookup (tests count or pause it) */
  wrapLookup?: (lookup: KeyLookup) => KeyLookup;
  /** read replicas: the Redis key of an account's last write position */
  lastWriteKey?: (accountId: number) => string | undefined;
}

/**
 * The authenticator with its rate limits and key cache. With Redis, one gate decides for
 * all of them whether Redis answers (else the in-process limiters, and no cache).
 */
export function wireAdmission({
  config,
  db,
  log,
  now,
  redis,
  wrapLookup,
  lastWriteKey,
}: AdmissionWiring): {
  authenticate: Authenticator;
  keyCache: KeyCache;
  limiter: RateLimiter;
} {
  const keyCache = new KeyCache();
  const gate = redis && new RedisGate(redis.commands, log, 'rate limiter');
  const limiterFor = (limit: number): RateLimiter =>
    redis && gate
      ? new FallbackLimiter(
          gate,
          new RedisLimiter(redis.commands, limit, redis.prefix),
          new MemoryLimiter(limit),
        )
      : new MemoryLimiter(limit);
  const limiter = limiterFor(config.rateLimitPerMinute);
  const lookup = createKeyLookup(db);

  if (redis) subscribeKeyCache(redis.subscriber, redis.commands, keyCache, log);
  const counter =
    redis &&
    new RequestCounter(redis.commands, {
      limit: config.rateLimitPerMinute,
      brake: config.failedAuthPerMinute,
      prefix: redis.prefix,
      versionKey: KEY_EPOCH_KEY,
    });
  const shared: AuthenticatorParts['redis'] =
    counter && gate
      ? {
          cache: keyCache,
          count: (query, nowMs) => gate.run(() => counter.count(query, nowMs)),
        }
      : undefined;
  const authenticate = createAuthenticator({
    lookup: wrapLookup ? wrapLookup(lookup) : lookup,
    limiter,
    failedAttempts: failedAttemptsIn(
      limiterFor(config.failedAuthPerMinute),
      config.failedAuthPerMinute,
    ),
    now,
    redis: shared,
    lastWriteKey,
  });
  return { authenticate, keyCache, limiter };
}
