import { describe, expect, it } from 'vitest';
import { appOnOtherPostgres, startTestApp } from '../helpers/testApp.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

const t = testAppForFile({ env: { RATE_LIMIT_PER_MINUTE: '1' } });

describe('probes (/healthz and /readyz)', () => {
  it('answers /healthz with 200 while the process is up, without a key', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz with 200 when Postgres and Redis answer', async () => {
    const res = await t.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      postgres: true,
      redis: true,
      limiter: 'redis',
      key_cache: 'live',
    });
  });

  it('is never rate limited or counted', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    }
  });

  it('answers /readyz with 200 without REDIS_URL, reporting no Redis', async () => {
    const solo = await startTestApp({ redis: false, database: t.database });
    try {
      const res = await solo.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ postgres: true, redis: null, limiter: 'memory' });
    } finally {
      await solo.close();
    }
  });

  it('answers /readyz with 503 when Postgres is unreachable, /healthz still 200', async () => {
    const { app, close } = appOnOtherPostgres(t, 'postgres://postgres@127.0.0.1:1/nowhere');
    try {
      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'unavailable', postgres: false });
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await close();
    }
  });

  it('answers /readyz with 503 when the database it points at is gone', async () => {
    const { app, close } = appOnOtherPostgres(
      t,
      t.database.url.replace(/\/[^/]+$/, '/lk_no_such_database'),
      'gone',
    );
    try {
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(503);
    } finally {
      await close();
    }
  });
});
