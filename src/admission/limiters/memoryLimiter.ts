import { decide, WINDOW_MS, windowStart, type RateDecision, type RateLimiter } from './limiter.js';

/** In-process limiter: used without REDIS_URL, and as the fallback while Redis is down. */
export class MemoryLimiter implements RateLimiter {
  private window = 0;
  private counts = new Map<string, number>();

  constructor(private readonly limit: number) {}

  async hit(key: string, nowMs: number): Promise<RateDecision> {
    const start = this.enter(nowMs);
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return decide(count, this.limit, start + WINDOW_MS - nowMs);
  }

  async peek(key: string, nowMs: number): Promise<RateDecision> {
    const start = this.enter(nowMs);
    // as if one more hit came: allowed only while that hit would be within the limit
    return decide((this.counts.get(key) ?? 0) + 1, this.limit, start + WINDOW_MS - nowMs);
  }

  private enter(nowMs: number): number {
    const start = windowStart(nowMs);
    if (start !== this.window) {
      // A new window: every previous count is void, so memory never grows past one window.
      this.window = start;
      this.counts = new Map();
    }
    return start;
  }

  backend(): 'memory' {
    return 'memory';
  }
}
