import { errors } from '../http/httpErrors.js';
import { decide, WINDOW_MS, windowStart, type RateLimiter } from './limiters/limiter.js';

/**
 * A brake on key guessing and on floods of lookups for unknown keys: after
 * FAILED_AUTH_PER_MINUTE (default 30) unknown keys from one client IP in a minute, that
 * client's requests with a key answer 429 until the minute ends. The right key too:
 * otherwise the answers would tell a hit from a miss.
 */
export interface FailedAttempts {
  /** the limiter's key for a client: what Redis counts its failures under */
  keyOf(client: string): string;
  /** 429 at once, with no lookup and no Redis, for a client this instance saw braked */
  assertNotKnownBraked(client: string, nowMs: number): void;
  /** 429 when `failures` (this window's, read by the request's one Redis script) is at the brake */
  assertUnder(client: string, failures: number, nowMs: number): void;
  /** 429 when the client has no failed attempts left (asks the limiter: the in-process path) */
  assertAllowed(client: string, nowMs: number): Promise<void>;
  /** Counts a failed attempt and throws: 401, or 429 once the count is past the brake. */
  refuse(client: string, nowMs: number): Promise<never>;
}

/** Beyond this many braked clients in one window, they are asked about again each time. */
const MAX_REMEMBERED = 100_000;

/** Counts in `limiter` (Redis with an in-process fallback, or in-process only). */
export function failedAttemptsIn(limiter: RateLimiter, brake: number): FailedAttempts {
  // Within a fixed window a client's count only grows, so a client seen at the brake stays
  // braked until the window ends: remembering it spares its requests the Postgres lookup
  // that a miss would cost before the script could tell.
  let window = 0;
  let braked = new Set<string>();
  const current = (nowMs: number) => {
    const start = windowStart(nowMs);
    if (start !== window) {
      window = start;
      braked = new Set();
    }
    return braked;
  };
  const remember = (client: string, nowMs: number) => {
    const set = current(nowMs);
    if (set.size < MAX_REMEMBERED) set.add(client);
  };
  const keyOf = (client: string) => `ip:${client}`;
  const tooMany = (nowMs: number) =>
    errors.tooManyFailedAttempts(
      decide(brake + 1, brake, windowStart(nowMs) + WINDOW_MS - nowMs).retryAfterSeconds,
    );

  return {
    keyOf,
    assertNotKnownBraked(client, nowMs) {
      if (current(nowMs).has(client)) throw tooMany(nowMs);
    },
    assertUnder(client, failures, nowMs) {
      if (failures < brake) return;
      remember(client, nowMs);
      throw tooMany(nowMs);
    },
    async assertAllowed(client, nowMs) {
      const decision = await limiter.peek(keyOf(client), nowMs);
      if (decision.allowed) return;
      remember(client, nowMs);
      throw errors.tooManyFailedAttempts(decision.retryAfterSeconds);
    },
    async refuse(client, nowMs) {
      const decision = await limiter.hit(keyOf(client), nowMs);
      if (decision.remaining === 0) remember(client, nowMs);
      throw decision.allowed
        ? errors.unauthorized()
        : errors.tooManyFailedAttempts(decision.retryAfterSeconds);
    },
  };
}
