import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { RateDecision, RateLimiter } from './limiter.js';

/** While on the fallback after a failed command, Redis is retried at most this often. */
export const RETRY_INTERVAL_MS = 1000;

/**
 * Redis while it answers, the in-process limiter while it does not (contract/decisions.md:
 * keep serving through a Redis outage). Warns once per outage; returns to Redis as soon
 * as the client reports it is ready again, or a command answers again.
 */
export class FallbackLimiter implements RateLimiter {
  private onFallback = false;
  /** real time before which a fallen-back limiter does not try Redis again */
  private retryAfter = 0;

  constructor(
    private readonly redis: Redis,
    private readonly primary: RateLimiter,
    private readonly fallback: RateLimiter,
    private readonly log: Pick<Logger, 'warn' | 'info'>,
    /** names the limiter in its log lines */
    private readonly name = 'rate limiter',
  ) {
    redis.on('ready', () => this.recovered());
  }

  hit(key: string, nowMs: number): Promise<RateDecision> {
    return this.route((limiter) => limiter.hit(key, nowMs));
  }

  peek(key: string, nowMs: number): Promise<RateDecision> {
    return this.route((limiter) => limiter.peek(key, nowMs));
  }

  backend(): 'redis' | 'memory' {
    return this.onFallback || this.redis.status !== 'ready' ? 'memory' : 'redis';
  }

  private async route(op: (limiter: RateLimiter) => Promise<RateDecision>): Promise<RateDecision> {
    // A stalled Redis keeps its connection but times every command out: without the
    // pause each request would wait for that timeout before falling back.
    const paused = this.onFallback && Date.now() < this.retryAfter;
    if (this.redis.status === 'ready' && !paused) {
      try {
        const decision = await op(this.primary);
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
    return op(this.fallback);
  }

  private recovered(): void {
    if (!this.onFallback) return;
    this.onFallback = false;
    this.log.info(`${this.name}: Redis is back; using it again`);
  }

  private fallBack(err: unknown): void {
    this.retryAfter = Date.now() + RETRY_INTERVAL_MS;
    if (this.onFallback) return;
    this.onFallback = true;
    this.log.warn(
      { err },
      `${this.name}: Redis unreachable; falling back to the in-process limiter`,
    );
  }
}
