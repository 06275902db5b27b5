import type { Redis } from 'ioredis';
import { decide, WINDOW_MS, windowStart, type RateDecision, type RateLimiter } from './limiter.js';

/**
 * One atomic round trip: count the hit, give the window key its expiry on the first hit,
 * return the count and time left. A script, not MULTI/EXEC: only the script can set the
 * expiry depending on the count it has just read, and Redis runs it as one command.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
`;

/** The window index is in the key, so instances agree on windows without coordination. */
export function windowKey(prefix: string, key: string, start: number): string {
  return `${prefix}rl:${key}:${start}`;
}

/** The key's own expiry bounds the wait when it is shorter (a key left from a slower clock). */
export function decideOnTtl(count: number, limit: number, ttlMs: number, msLeft: number) {
  return decide(count, limit, ttlMs > 0 ? Math.min(ttlMs, msLeft) : msLeft);
}

type RedisWithHit = Redis & {
  lkRateHit(key: string, ttlMs: number): Promise<[number, number]>;
};

export class RedisLimiter implements RateLimiter {
  private readonly redis: RedisWithHit;

  constructor(
    redis: Redis,
    private readonly limit: number,
    private readonly prefix: string,
  ) {
    if (!('lkRateHit' in redis))
      redis.defineCommand('lkRateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as RedisWithHit;
  }

  async hit(key: string, nowMs: number): Promise<RateDecision> {
    const start = windowStart(nowMs);
    const msLeft = start + WINDOW_MS - nowMs;
    const [count, ttl] = await this.redis.lkRateHit(
      windowKey(this.prefix, key, start),
      msLeft + 1000,
    );
    return decideOnTtl(count, this.limit, ttl, msLeft);
  }

  async peek(key: string, nowMs: number): Promise<RateDecision> {
    const start = windowStart(nowMs);
    const count = Number((await this.redis.get(windowKey(this.prefix, key, start))) ?? 0);
    // as if one more hit came: allowed only while that hit would be within the limit
    return decide(count + 1, this.limit, start + WINDOW_MS - nowMs);
  }

  backend(): 'redis' {
    return 'redis';
  }
}
