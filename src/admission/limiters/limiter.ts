/** Fixed one-minute windows per account, all methods combined (the limits). */
export const WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** whole seconds until the window resets, 1–60 */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** counts one hit and decides on it */
  hit(key: string, nowMs: number): Promise<RateDecision>;
  /** decides on the hits so far without counting one: allowed while below the limit */
  peek(key: string, nowMs: number): Promise<RateDecision>;
  /** which store answered last: for /readyz, metrics and tests */
  backend(): 'redis' | 'memory';
}

export function windowStart(nowMs: number): number {
  return nowMs - (nowMs % WINDOW_MS);
}

export function decide(count: number, limit: number, msLeft: number): RateDecision {
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    retryAfterSeconds: Math.min(60, Math.max(1, Math.ceil(msLeft / 1000))),
  };
}
