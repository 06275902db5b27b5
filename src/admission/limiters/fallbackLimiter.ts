import type { RateDecision, RateLimiter } from './limiter.js';
import type { RedisGate } from './redisGate.js';

/** `primary` (on Redis) while the gate lets requests through to Redis, else `fallback`. */
export class FallbackLimiter implements RateLimiter {
  constructor(
    private readonly gate: RedisGate,
    private readonly primary: RateLimiter,
    private readonly fallback: RateLimiter,
  ) {}

  async hit(key: string, nowMs: number): Promise<RateDecision> {
    return (
      (await this.gate.run(() => this.primary.hit(key, nowMs))) ?? this.fallback.hit(key, nowMs)
    );
  }

  async peek(key: string, nowMs: number): Promise<RateDecision> {
    return (
      (await this.gate.run(() => this.primary.peek(key, nowMs))) ?? this.fallback.peek(key, nowMs)
    );
  }

  backend(): 'redis' | 'memory' {
    return this.gate.backend();
  }
}
