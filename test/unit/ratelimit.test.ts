import { describe, expect, it } from 'vitest';
import { failedAttemptsIn } from '../../src/admission/failedAttempts.js';
import type { ApiError } from '../../src/http/httpErrors.js';
import { decide, WINDOW_MS, windowStart } from '../../src/admission/limiters/limiter.js';
import { MemoryLimiter } from '../../src/admission/limiters/memoryLimiter.js';

const minute = Date.UTC(2030, 0, 1, 10, 0, 0);

describe('fixed one-minute windows (the limits)', () => {
  it('starts windows on whole minutes', () => {
    expect(windowStart(minute)).toBe(minute);
    expect(windowStart(minute + 59_999)).toBe(minute);
    expect(windowStart(minute + WINDOW_MS)).toBe(minute + WINDOW_MS);
  });

  it('allows up to the limit and counts the remainder down to zero', () => {
    expect(decide(1, 5, 30_000)).toEqual({
      allowed: true,
      limit: 5,
      remaining: 4,
      retryAfterSeconds: 30,
    });
    expect(decide(5, 5, 30_000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(decide(6, 5, 30_000)).toMatchObject({ allowed: false, remaining: 0 });
    expect(decide(600, 5, 30_000)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('gives Retry-After in whole seconds from 1 to 60, rounded up', () => {
    expect(decide(6, 5, 29_001).retryAfterSeconds).toBe(30);
    expect(decide(6, 5, 1).retryAfterSeconds).toBe(1);
    expect(decide(6, 5, 0).retryAfterSeconds).toBe(1);
    expect(decide(6, 5, 60_000).retryAfterSeconds).toBe(60);
    expect(decide(6, 5, 61_000).retryAfterSeconds).toBe(60);
  });
});

describe('MemoryLimiter (operations: without REDIS_URL)', () => {
  it('answers the limit+1st hit of a window with 429 and resets in the next window', async () => {
    const limiter = new MemoryLimiter(3);
    const at = minute + 45_000;
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.hit('a1', at));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions[3]!.retryAfterSeconds).toBe(15);
    const next = await limiter.hit('a1', minute + WINDOW_MS);
    expect(next).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('counts each key apart', async () => {
    const limiter = new MemoryLimiter(1);
    expect((await limiter.hit('a1', minute)).allowed).toBe(true);
    expect((await limiter.hit('a1', minute)).allowed).toBe(false);
    expect((await limiter.hit('a2', minute)).allowed).toBe(true);
  });

  it('reports itself as the memory backend', () => {
    expect(new MemoryLimiter(1).backend()).toBe('memory');
  });
});

describe('failed key attempts per client IP (docs/api-conventions.md: 30 per minute)', () => {
  const status = async (p: Promise<unknown>) =>
    p.then(
      () => 0,
      (err: { status?: number }) => err.status,
    );

  it('refuses with 401 until the brake, then 429 with the seconds left in the minute', async () => {
    const brake = failedAttemptsIn(new MemoryLimiter(2), 2);
    const at = minute + 45_000;
    expect(await status(brake.refuse('10.0.0.1', at))).toBe(401);
    expect(await status(brake.refuse('10.0.0.1', at))).toBe(401);
    const err = await brake.refuse('10.0.0.1', at).catch((e: ApiError) => e);
    expect(err).toMatchObject({ status: 429, headers: { 'retry-after': '15' } });
  });

  it('remembers a braked client until the minute ends, other clients untouched', async () => {
    const brake = failedAttemptsIn(new MemoryLimiter(1), 1);
    await brake.refuse('10.0.0.1', minute).catch(() => undefined);
    expect(() => brake.assertNotKnownBraked('10.0.0.1', minute + 59_999)).toThrow();
    expect(() => brake.assertNotKnownBraked('10.0.0.2', minute)).not.toThrow();
    expect(() => brake.assertNotKnownBraked('10.0.0.1', minute + WINDOW_MS)).not.toThrow();
  });

  it('brakes on a count read elsewhere (the request script) once it reaches the limit', () => {
    const brake = failedAttemptsIn(new MemoryLimiter(3), 3);
    expect(() => brake.assertUnder('10.0.0.1', 2, minute)).not.toThrow();
    expect(() => brake.assertUnder('10.0.0.1', 3, minute)).toThrow();
    expect(() => brake.assertNotKnownBraked('10.0.0.1', minute)).toThrow();
  });
});
