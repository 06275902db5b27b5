import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createRuntime } from '../../src/runtime.js';
import { call, type CallResult } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { probeAppForFile } from '../helpers/probeMethods.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/** A settable clock, 30 s into a minute, so windows move only when a test says so. */
function manualClock(start = Date.UTC(2030, 0, 1, 10, 0, 30)) {
  let now = start;
  return {
    clock: () => new Date(now),
    set: (ms: number) => (now = ms),
    advance: (ms: number) => (now += ms),
    start,
  };
}

const time = manualClock();

const t = testAppForFile({ env: { RATE_LIMIT_PER_MINUTE: '5' }, clock: time.clock });
const probe = probeAppForFile(t);

function expectLimited(res: CallResult, limit = 5) {
  expect(res.status).toBe(429);
  expect(res.raw.body).toBe('{"message":"Too Many Attempts."}');
  const retryAfter = String(res.headers['retry-after']);
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
}

async function spend(app: TestApp['app'], key: string, n: number): Promise<CallResult[]> {
  const out: CallResult[] = [];
  for (let i = 0; i < n; i++) out.push(await call(app, 'getMe', {}, { key }));
  return out;
}

describe('rate limit headers (the limits)', () => {
  it('puts X-RateLimit-Limit and X-RateLimit-Remaining on every authenticated response', async () => {
    const user = await makeTenant(t.db);
    const ok = await call(t.app, 'getMe', {}, { key: user.apiKey });
    const invalid = await call(probe.app, 'strictParams', {}, { key: user.apiKey });
    expect(ok.status).toBe(200);
    expect(invalid.status).toBe(422);
    expect([ok.headers['x-ratelimit-limit'], ok.headers['x-ratelimit-remaining']]).toEqual([
      '5',
      '4',
    ]);
    expect([
      invalid.headers['x-ratelimit-limit'],
      invalid.headers['x-ratelimit-remaining'],
    ]).toEqual(['5', '3']);
  });

  it('counts down X-RateLimit-Remaining and answers the 6th request with 429', async () => {
    const user = await makeTenant(t.db);
    const answers = await spend(t.app, user.apiKey, 6);
    expect(answers.slice(0, 5).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.slice(0, 5).map((r) => r.headers['x-ratelimit-remaining'])).toEqual([
      '4',
      '3',
      '2',
      '1',
      '0',
    ]);
    expectLimited(answers[5]!);
    // 30 s into the minute: the window resets in 30 s.
    expect(answers[5]!.headers['retry-after']).toBe('30');
  });

  it('answers 429 as JSON to a client that does not ask for JSON', async () => {
    const user = await makeTenant(t.db);
    await spend(t.app, user.apiKey, 5);
    const res = await t.app.inject({
      url: '/api/v1/getMe',
      headers: { authorization: `Bearer ${user.apiKey}` },
    });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ message: 'Too Many Attempts.' });
  });
});

describe('what is counted (the limits: per account, all methods combined)', () => {
  it('limits each account on its own', async () => {
    const busy = await makeTenant(t.db);
    const calm = await makeTenant(t.db);
    await spend(t.app, busy.apiKey, 6);
    const res = await call(t.app, 'getMe', {}, { key: calm.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('4');
  });

  it('counts every method together, failed validations included', async () => {
    const user = await makeTenant(t.db);
    await call(t.app, 'getMe', {}, { key: user.apiKey });
    await call(probe.app, 'echoParams', {}, { key: user.apiKey });
    await call(probe.app, 'strictParams', {}, { key: user.apiKey });
    await call(t.app, 'getMe', {}, { key: user.apiKey, via: 'query' });
    await call(probe.app, 'echoParams', {}, { key: user.apiKey, via: 'form' });
    expectLimited(await call(probe.app, 'echoParams', {}, { key: user.apiKey }));
    expectLimited(await call(t.app, 'getMe', {}, { key: user.apiKey }));
  });

  it('counts a key given as api_token like one given in the header', async () => {
    const user = await makeTenant(t.db);
    await spend(t.app, user.apiKey, 5);
    const res = await call(t.app, 'getMe', { api_token: user.apiKey }, { via: 'query' });
    expectLimited(res);
  });

  it('does not count requests that fail authentication or name no method', async () => {
    const user = await makeTenant(t.db);
    for (let i = 0; i < 10; i++) {
      await call(t.app, 'noSuchMethod', {}, { key: user.apiKey });
    }
    const res = await call(t.app, 'getMe', {}, { key: user.apiKey });
    expect(res.headers['x-ratelimit-remaining']).toBe('4');
  });

  it('lets exactly the limit through when requests arrive at once (one atomic script)', async () => {
    const user = await makeTenant(t.db);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(t.app, 'getMe', {}, { key: user.apiKey })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(5);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(15);
  });
});

describe('fixed one-minute windows (the limits)', () => {
  it('resets at the next minute and counts again from the limit', async () => {
    const user = await makeTenant(t.db);
    await spend(t.app, user.apiKey, 5);
    time.advance(29_000); // 59 s into the minute
    const late = await call(t.app, 'getMe', {}, { key: user.apiKey });
    expectLimited(late);
    expect(late.headers['retry-after']).toBe('1');

    time.advance(1_000); // the next minute
    const fresh = await call(t.app, 'getMe', {}, { key: user.apiKey });
    expect(fresh.status).toBe(200);
    expect(fresh.headers['x-ratelimit-remaining']).toBe('4');
    time.set(time.start);
  });

  it('rounds Retry-After up to whole seconds', async () => {
    const user = await makeTenant(t.db);
    time.set(time.start + 100); // 30.1 s into the minute: 29.9 s left
    await spend(t.app, user.apiKey, 5);
    const res = await call(t.app, 'getMe', {}, { key: user.apiKey });
    expectLimited(res);
    expect(res.headers['retry-after']).toBe('30');
    time.set(time.start);
  });
});

describe('several instances (the limits with REDIS_URL)', () => {
  it('shares one limit between two instances through Redis', async () => {
    const runtime = createRuntime(
      t.config,
      { ...t.database.handle, close: async () => undefined },
      pino({ level: 'silent' }),
      { redisPrefix: t.deps.redisPrefix, clock: time.clock },
    );
    const second = buildApp(runtime.deps, { logStream: { write: () => undefined } });
    try {
      const user: Tenant = await makeTenant(t.db);
      await spend(t.app, user.apiKey, 3);
      const onSecond = await spend(second, user.apiKey, 3);
      expect(onSecond.map((r) => r.status)).toEqual([200, 200, 429]);
      expect(onSecond[1]!.headers['x-ratelimit-remaining']).toBe('0');
      expectLimited(await call(t.app, 'getMe', {}, { key: user.apiKey }));
      expect(t.deps.limiter.backend()).toBe('redis');
    } finally {
      await second.close();
      await runtime.close();
    }
  });
});

describe('without REDIS_URL (operations: in-process limiter)', () => {
  it('limits with the in-process limiter, windows and all', async () => {
    const localTime = manualClock();
    const solo = await startTestApp({
      redis: false,
      database: t.database,
      env: { RATE_LIMIT_PER_MINUTE: '5' },
      clock: localTime.clock,
    });
    try {
      expect(solo.deps.redis).toBeUndefined();
      expect(solo.deps.limiter.backend()).toBe('memory');
      const user = await makeTenant(solo.db);
      const answers = await spend(solo.app, user.apiKey, 6);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
      expectLimited(answers[5]!);
      expect(answers[5]!.headers['retry-after']).toBe('30');
      const other = await makeTenant(solo.db);
      expect((await call(solo.app, 'getMe', {}, { key: other.apiKey })).status).toBe(200);
      localTime.advance(30_000);
      expect((await call(solo.app, 'getMe', {}, { key: user.apiKey })).status).toBe(200);
    } finally {
      await solo.close();
    }
  });

  it('uses the default of 120 per minute when RATE_LIMIT_PER_MINUTE is unset', async () => {
    const solo = await startTestApp({ redis: false, database: t.database });
    try {
      const user = await makeTenant(solo.db);
      const res = await call(solo.app, 'getMe', {}, { key: user.apiKey });
      expect(res.headers['x-ratelimit-limit']).toBe('120');
      expect(res.headers['x-ratelimit-remaining']).toBe('119');
    } finally {
      await solo.close();
    }
  });
});
