import { errors } from '../http/errors.js';
import type { RateLimiter } from '../ratelimit/limiter.js';

/**
 * A brake on key guessing and on floods of lookups for unknown keys: after
 * FAILED_AUTH_PER_MINUTE (default 30) unknown keys
 * from one client IP in a minute, that client's requests with a key answer 429 until the
 * minute ends. The right key too: otherwise the answers would tell a hit from a miss.
 */
export interface FailedAttempts {
  /** Throws 429 when the client has no failed attempts left in this minute. */
  assertAllowed(client: string, nowMs: number): Promise<void>;
  record(client: string, nowMs: number): Promise<void>;
}

/** Counts in `limiter` (Redis with an in-process fallback, or in-process only). */
export function failedAttemptsIn(limiter: RateLimiter): FailedAttempts {
  const keyOf = (client: string) => `ip:${client}`;
  return {
    async assertAllowed(client, nowMs) {
      const decision = await limiter.peek(keyOf(client), nowMs);
      if (!decision.allowed) throw errors.tooManyFailedAttempts(decision.retryAfterSeconds);
    },
    async record(client, nowMs) {
      await limiter.hit(keyOf(client), nowMs);
    },
  };
}
