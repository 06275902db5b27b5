import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { RateDecision, RateLimiter } from './limiter.js';

/**
 * Redis while it answers, the in-process limiter while it does not (contract/decisions.md:
 * keep serving through a Redis outage). Warns once per outage; returns to Redis as soon
 * as the client reports it is ready again.
 */
export class FallbackLimiter implements RateLimiter {
  private onFallback = false;

  constructor(
    private readonly redis: Redis,
    private readonly primary: RateLimiter,
    private readonly fallback: RateLimiter,
    private readonly log: Pick<Logger, 'warn' | 'info'>,
  ) {
    redis.on('ready', () => {
      if (this.onFallback) this.log.info('rate limiter: Redis is back; using it again');
      this.onFallback = false;
    });
  }

  async hit(key: string, nowMs: number): Promise<RateDecision> {
    if (this.redis.status === 'ready') {
      try {
        return await this.primary.hit(key, nowMs);
      } catch (err) {
        this.fallBack(err);
      }
    } else {
      this.fallBack(new Error(`redis status ${this.redis.status}`));
    }
    return this.fallback.hit(key, nowMs);
  }

  backend(): 'redis' | 'memory' {
    return this.onFallback || this.redis.status !== 'ready' ? 'memory' : 'redis';
  }

  private fallBack(err: unknown): void {
    if (this.onFallback) return;
    this.onFallback = true;
    this.log.warn(
      { err },
      'rate limiter: Redis unreachable; falling back to the in-process limiter',
    );
  }
}
