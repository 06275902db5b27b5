import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { freePort } from '../helpers/freePort.js';

async function scrape(t: TestApp): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  return res.body;
}

/** The value of one sample line, e.g. `name{a="b"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics (what the service is doing, for Prometheus)', () => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    tenant = await makeTenant(t.db);
  });
  afterAll(() => t.close());

  it('counts API calls by method and status, without an API key to read them', async () => {
    const before = await scrape(t);
    expect(sample(before, 'listkeeper_api_requests_total{method="getMe",status="200"}')).toBe(
      undefined,
    );
    await call(t.app, 'getMe', {}, { key: tenant.apiKey });
    await call(t.app, 'getMe', {}, { key: tenant.apiKey, via: 'query' });
    await call(t.app, 'getMe', {}, { key: 'wrong' });
    const after = await scrape(t);
    expect(sample(after, 'listkeeper_api_requests_total{method="getMe",status="200"}')).toBe(2);
    expect(sample(after, 'listkeeper_api_requests_total{method="getMe",status="401"}')).toBe(1);
  });

  it('keeps a latency histogram per method', async () => {
    const text = await scrape(t);
    expect(sample(text, 'listkeeper_api_request_duration_seconds_count{method="getMe"}')).toBe(3);
    expect(
      sample(text, 'listkeeper_api_request_duration_seconds_bucket{le="+Inf",method="getMe"}'),
    ).toBe(3);
    expect(
      sample(text, 'listkeeper_api_request_duration_seconds_sum{method="getMe"}'),
    ).toBeGreaterThan(0);
  });

  it('labels unknown method names as "unknown", so arbitrary URLs add no series', async () => {
    await call(t.app, 'noSuchMethodXyz', {}, { key: tenant.apiKey });
    const text = await scrape(t);
    expect(text).not.toContain('noSuchMethodXyz');
    expect(sample(text, 'listkeeper_api_requests_total{method="unknown",status="404"}')).toBe(1);
  });

  it('counts requests refused by the rate limiter (the limits)', async () => {
    const other = await makeTenant(t.db);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await call(t.app, 'getMe', {}, { key: other.apiKey })).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    const text = await scrape(t);
    expect(sample(text, 'listkeeper_rate_limited_requests_total{method="getMe"}')).toBe(2);
    expect(sample(text, 'listkeeper_api_requests_total{method="getMe",status="429"}')).toBe(2);
  });

  it('reports the Postgres pool: size limit and connections in use or idle', async () => {
    const text = await scrape(t);
    expect(sample(text, 'listkeeper_db_pool_max_connections')).toBe(10);
    const idle = sample(text, 'listkeeper_db_pool_connections{state="idle"}') ?? -1;
    const inUse = sample(text, 'listkeeper_db_pool_connections{state="in_use"}') ?? -1;
    // the calls above opened at least one connection, now back in the pool
    expect(idle).toBeGreaterThanOrEqual(1);
    expect(inUse).toBe(0);
    expect(sample(text, 'listkeeper_db_pool_waiting_requests')).toBe(0);
  });

  it('says the limiter runs on Redis while Redis answers', async () => {
    const text = await scrape(t);
    expect(sample(text, 'listkeeper_rate_limiter_backend{backend="redis"}')).toBe(1);
    expect(sample(text, 'listkeeper_rate_limiter_backend{backend="memory"}')).toBe(0);
  });
});

describe('metrics configuration (METRICS, METRICS_PORT)', () => {
  // One database for the four apps: on Citus each database is made and dropped on three
  // nodes, and a CI run under load once spent the whole of a test's 30 s doing that.
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('says the limiter is in-process without REDIS_URL', async () => {
    const t = await startTestApp({ database, redis: false });
    try {
      const text = await scrape(t);
      expect(sample(text, 'listkeeper_rate_limiter_backend{backend="memory"}')).toBe(1);
      expect(sample(text, 'listkeeper_rate_limiter_backend{backend="redis"}')).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('says the limiter fell back to in-process when Redis stops answering', async () => {
    const t = await startTestApp({ database });
    try {
      const tenant = await makeTenant(t.db);
      t.deps.redis?.disconnect();
      const res = await call(t.app, 'getMe', {}, { key: tenant.apiKey });
      expect(res.status).toBe(200);
      const text = await scrape(t);
      expect(sample(text, 'listkeeper_rate_limiter_backend{backend="memory"}')).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('serves nothing at /metrics with METRICS=off', async () => {
    const t = await startTestApp({ database, env: { METRICS: 'off' } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('with METRICS_PORT serves them on that port only, while the app listens', async () => {
    const port = await freePort();
    const t = await startTestApp({ database, env: { METRICS_PORT: String(port) } });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('listkeeper_rate_limiter_backend');
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      await t.close();
    }
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});
