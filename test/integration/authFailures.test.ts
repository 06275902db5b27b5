import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createRuntime } from '../../src/runtime.js';
import { makeTenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/** 30 s into a minute; each test moves to a minute of its own so counts never mix. */
const MINUTE = 60_000;
let now = Date.UTC(2030, 0, 1, 10, 0, 30);
const clock = () => new Date(now);
const nextMinute = () => (now += MINUTE);

const t = testAppForFile({ clock, tenants: ['tenant'] });

type App = TestApp['app'];

function getMe(app: App, ip: string, key?: string, headers: Record<string, string> = {}) {
  return app.inject({
    url: '/api/v1/getMe',
    remoteAddress: ip,
    headers: {
      accept: 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
  });
}

async function failTimes(app: App, ip: string, n: number, headers?: Record<string, string>) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    statuses.push((await getMe(app, ip, `lk_wrong_${i}`, headers)).statusCode);
  }
  return statuses;
}

describe('failed key attempts per client IP (docs/api-conventions.md: 30 per minute)', () => {
  it('answers 401 thirty times, then 429 to every keyed request, the right key included', async () => {
    nextMinute();
    expect(await failTimes(t.app, '10.0.0.1', 30)).toEqual(Array(30).fill(401));

    const wrong = await getMe(t.app, '10.0.0.1', 'lk_wrong_again');
    expect(wrong.statusCode).toBe(429);
    expect(wrong.body).toBe('{"message":"Too Many Attempts."}');
    expect(wrong.headers['retry-after']).toBe('30');
    expect(wrong.headers['x-ratelimit-limit']).toBeUndefined();

    const right = await getMe(t.app, '10.0.0.1', t.tenant.apiKey);
    expect(right.statusCode).toBe(429);
    const viaToken = await t.app.inject({
      url: `/api/v1/getMe?api_token=${t.tenant.apiKey}`,
      remoteAddress: '10.0.0.1',
    });
    expect(viaToken.statusCode).toBe(429);
  });

  it('leaves other addresses alone', async () => {
    nextMinute();
    await failTimes(t.app, '10.0.0.3', 31);
    expect((await getMe(t.app, '10.0.0.4', t.tenant.apiKey)).statusCode).toBe(200);
    expect((await getMe(t.app, '10.0.0.4', 'lk_wrong')).statusCode).toBe(401);
  });

  it('lets the address try again in the next minute', async () => {
    nextMinute();
    await failTimes(t.app, '10.0.0.5', 31);
    expect((await getMe(t.app, '10.0.0.5', t.tenant.apiKey)).statusCode).toBe(429);
    nextMinute();
    expect((await getMe(t.app, '10.0.0.5', t.tenant.apiKey)).statusCode).toBe(200);
    expect((await getMe(t.app, '10.0.0.5', 'lk_wrong')).statusCode).toBe(401);
  });

  it('does not count requests without a key, or with a key that is right', async () => {
    nextMinute();
    const free = await makeTenant(t.db, { plan: 'free' });
    for (let i = 0; i < 40; i++) {
      expect((await getMe(t.app, '10.0.0.6')).statusCode).toBe(401);
      expect(
        (await getMe(t.app, '10.0.0.6', undefined, { authorization: 'Basic x' })).statusCode,
      ).toBe(401);
      expect((await getMe(t.app, '10.0.0.6', free.apiKey)).statusCode).toBe(402);
    }
    expect((await getMe(t.app, '10.0.0.6', t.tenant.apiKey)).statusCode).toBe(200);
  });

  it('counts unknown keys given as api_token too', async () => {
    nextMinute();
    for (let i = 0; i < 30; i++) {
      const res = await t.app.inject({
        url: `/api/v1/getMe?api_token=lk_guess_${i}`,
        remoteAddress: '10.0.0.7',
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await getMe(t.app, '10.0.0.7', t.tenant.apiKey)).statusCode).toBe(429);
  });

  it('shares the count between instances through Redis', async () => {
    nextMinute();
    const runtime = createRuntime(
      t.config,
      { ...t.database.handle, close: async () => undefined },
      pino({ level: 'silent' }),
      { redisPrefix: t.deps.redisPrefix, clock },
    );
    const second = buildApp(runtime.deps, { logStream: { write: () => undefined } });
    try {
      await failTimes(t.app, '10.0.0.8', 20);
      expect(await failTimes(second, '10.0.0.8', 10)).toEqual(Array(10).fill(401));
      expect((await getMe(second, '10.0.0.8', t.tenant.apiKey)).statusCode).toBe(429);
      expect((await getMe(t.app, '10.0.0.8', t.tenant.apiKey)).statusCode).toBe(429);
    } finally {
      await second.close();
      await runtime.close();
    }
  });
});

describe('without REDIS_URL, and the figure from FAILED_AUTH_PER_MINUTE', () => {
  it('counts in-process', async () => {
    const solo = await startTestApp({
      redis: false,
      database: t.database,
      clock,
      env: { FAILED_AUTH_PER_MINUTE: '3' },
    });
    try {
      expect(await failTimes(solo.app, '10.0.1.1', 4)).toEqual([401, 401, 401, 429]);
      expect((await getMe(solo.app, '10.0.1.1', t.tenant.apiKey)).statusCode).toBe(429);
      expect((await getMe(solo.app, '10.0.1.2', t.tenant.apiKey)).statusCode).toBe(200);
    } finally {
      await solo.close();
    }
  });
});

describe('which address is the client (TRUST_PROXY)', () => {
  it('ignores X-Forwarded-For by default, so rotating it does not escape the count', async () => {
    nextMinute();
    for (let i = 0; i < 30; i++) {
      await getMe(t.app, '10.0.2.1', `lk_wrong_${i}`, { 'x-forwarded-for': `192.0.2.${i}` });
    }
    const res = await getMe(t.app, '10.0.2.1', t.tenant.apiKey, {
      'x-forwarded-for': '192.0.2.200',
    });
    expect(res.statusCode).toBe(429);
  });

  it('believes X-Forwarded-For from a trusted proxy, counting each client apart', async () => {
    const behindProxy = await startTestApp({
      database: t.database,
      clock,
      env: { TRUST_PROXY: '10.9.9.9', FAILED_AUTH_PER_MINUTE: '3' },
    });
    try {
      const via = (client: string) => ({ 'x-forwarded-for': client });
      await failTimes(behindProxy.app, '10.9.9.9', 3, via('198.51.100.1'));
      const blocked = await getMe(
        behindProxy.app,
        '10.9.9.9',
        t.tenant.apiKey,
        via('198.51.100.1'),
      );
      const other = await getMe(behindProxy.app, '10.9.9.9', t.tenant.apiKey, via('198.51.100.2'));
      expect([blocked.statusCode, other.statusCode]).toEqual([429, 200]);
    } finally {
      await behindProxy.close();
    }
  });
});
