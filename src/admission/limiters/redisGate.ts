import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** While on the fallback after a failed command, Redis is retried at most this often. */
export const RETRY_INTERVAL_MS = 1000;

/**
 * Decides whether a request asks Redis or the in-process fallback (docs/decisions.md:
 * keep serving through a Redis outage). One gate per connection, shared by the rate limit,
 * the failed-attempt brake and the key cache: an outage is noticed, paused and warned about
 * once, and all three switch together. Returns to Redis as soon as the client reports it is
 * ready again, or a command answers again.
 */
export class RedisGate {
  private onFallback = false;
  /** real time before which a fallen-back gate does not try Redis again */
  private retryAfter = 0;

  constructor(
    private readonly redis: Redis,
    private readonly log: Pick<Logger, 'warn' | 'info'>,
    /** names the gate in its log lines */
    private readonly name = 'rate limiter',
  ) {
    redis.on('ready', () => this.recovered());
  }

  /** `op`'s answer, or undefined when Redis is down, paused after a failure, or fails now. */
  async run<T>(op: (redis: Redis) => Promise<T>): Promise<T | undefined> {
    // A stalled Redis keeps its connection but times every command out: without the
    // pause each request would wait for that timeout before falling back.
    if (this.onFallback && Date.now() < this.retryAfter) return undefined;
    if (this.redis.status !== 'ready') {
      this.fallBack(new Error(`redis status ${this.redis.status}`));
      return undefined;
    }
    try {
      const answer = await op(this.redis);
      // A stalled Redis never drops the connection, so no 'ready' event marks its
      // return: the first answer does.
      this.recovered();
      return answer;
    } catch (err) {
      this.fallBack(err);
      return undefined;
    }
  }

  backend(): 'redis' | 'memory' {
    return this.onFallback || this.redis.status !== 'ready' ? 'memory' : 'redis';
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
