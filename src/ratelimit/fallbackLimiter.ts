import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { RateDecision, RateLimiter } from './limiter.js';

/**
 * Redis while it answers, the in-process limiter while it does not (contract/decisions.md:
 * keep serving through a Redis outage). Warns once per outage; returns to Redis as soon
 * as the client reports it is ready again, or a command answers again.
 */
/** While on the fallback after a failed command, Redis is retried at most this often. */
export const RETRY_INTERVAL_MS = 1000;

export class FallbackLimiter implements RateLimiter {
  private onFallback = false;
  /** real time before which a fallen-back limiter does not try Redis again */
  private retryAfter = 0;

  constructor(
    private readonly redis: Redis,
    private readonly primary: RateLimiter,
    private readonly fallback: RateLimiter,
    private readonly log: Pick<Logger, 'warn' | 'info'>,
  ) {
    redis.on('ready', () => this.recovered());
  }

  async hit(key: string, nowMs: number): Promise<RateDecision> {
    // A stalled Redis keeps its connection but times every command out: without the
    // pause each request would wait for that timeout before falling back.
    const paused = this.onFallback && Date.now() < this.retryAfter;
    if (this.redis.status === 'ready' && !paused) {
      try {
        const decision = await this.primary.hit(key, nowMs);
        // A stalled Redis (commands timing out) never drops the connection, so no 'ready'
        // event marks its return: the first answer does.
        this.recovered();
        return decision;
      } catch (err) {
        this.fallBack(err);
      }
    } else if (!paused) {
      this.fallBack(new Error(`redis status ${this.redis.status}`));
    }
    return this.fallback.hit(key, nowMs);
  }

  backend(): 'redis' | 'memory' {
    return this.onFallback || this.redis.status !== 'ready' ? 'memory' : 'redis';
  }

  private recovered(): void {
    if (!this.onFallback) return;
    this.onFallback = false;
    this.log.info('rate limiter: Redis is back; using it again');
  }

  private fallBack(err: unknown): void {
    this.retryAfter = Date.now() + RETRY_INTERVAL_MS;
    if (this.onFallback) return;
    this.onFallback = true;
    this.log.warn(
      { err },
      'rate limiter: Redis unreachable; falling back to the in-process limiter',
    );
  }
}
