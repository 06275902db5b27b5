import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/admission/apiKeys.js';
import { buildApp } from '../../src/app.js';
import type { AppDeps } from '../../src/appDeps.js';
import { loadConfig } from '../../src/config.js';
import { regenerateKey } from '../../src/operator/operatorAccounts.js';
import { createRuntime } from '../../src/runtime.js';
import { call } from '../helpers/call.js';
import { makeTenant } from '../helpers/factories.js';
import { freePort } from '../helpers/freePort.js';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { startTestApp, TEST_ENCRYPTION_KEY, type TestApp } from '../helpers/testApp.js';
import { waitFor } from '../helpers/waitFor.js';

interface Instance {
  app: FastifyInstance;
  deps: AppDeps;
  /** the process log (start-up, Redis, limiter), where outage warnings go */
  processLogs: string[];
  close(): Promise<void>;
}

let base: TestApp;
let redis: RedisServer;
const open: Instance[] = [];

beforeAll(async () => {
  base = await startTestApp({ redis: false });
  redis = await startRedisServer();
});
afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
  await redis.kill();
  await redis.start();
});
afterAll(async () => {
  await redis.kill();
  await base.close();
});

/** An app like main.ts builds it, on the throwaway Redis, with its process log captured. */
async function startInstance(redisUrl: string, limit = 100): Promise<Instance> {
  const processLogs: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => processLogs.push(line) });
  const config = loadConfig({
    DATABASE_URL: base.database.url,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    REDIS_URL: redisUrl,
    RATE_LIMIT_PER_MINUTE: String(limit),
    LOG_LEVEL: 'silent',
  });
  const runtime = createRuntime(config, { ...base.database.handle, close: async () => {} }, log, {
    redisPrefix: `lk_outage:${randomBytes(4).toString('hex')}:`,
  });
  const app = buildApp(runtime.deps);
  await app.ready();
  const instance = {
    app,
    deps: runtime.deps,
    processLogs,
    async close() {
      await app.close();
      await runtime.close();
    },
  };
  open.push(instance);
  return instance;
}

async function readyInstance(limit?: number): Promise<Instance> {
  const instance = await startInstance(redis.url, limit);
  await waitFor(() => instance.deps.redis?.status === 'ready', 'Redis connection');
  await waitFor(() => instance.deps.keyCache.isLive(), 'key cache subscription');
  return instance;
}

const fallbackWarnings = (i: Instance) =>
  i.processLogs.filter((l) =>
    l.includes('rate limiter: Redis unreachable; falling back to the in-process limiter'),
  ).length;

describe('Redis goes away while serving (docs/decisions.md: keep serving, fall back, come back)', () => {
  it('answers every request while Redis is down, warns once, and returns to Redis', async () => {
    const i = await readyInstance();
    const user = await makeTenant(base.db);
    expect((await call(i.app, 'getMe', {}, { key: user.apiKey })).status).toBe(200);
    expect(i.deps.limiter.backend()).toBe('redis');

    await redis.kill();
    const during = await Promise.all(
      Array.from({ length: 30 }, () => call(i.app, 'getMe', {}, { key: user.apiKey })),
    );
    for (let n = 0; n < 10; n++) during.push(await call(i.app, 'getMe', {}, { key: user.apiKey }));
    expect(during.map((r) => r.status)).toEqual(Array(40).fill(200));
    expect(during.every((r) => r.headers['x-ratelimit-limit'] === '100')).toBe(true);
    expect(i.deps.limiter.backend()).toBe('memory');
    expect(fallbackWarnings(i)).toBe(1);

    await redis.start();
    await waitFor(() => i.deps.limiter.backend() === 'redis', 'the limiter to use Redis again');
    expect((await call(i.app, 'getMe', {}, { key: user.apiKey })).status).toBe(200);
    const direct = new Redis(redis.url);
    try {
      const keys = await direct.keys(`${i.deps.redisPrefix}rl:*`);
      expect(keys).toHaveLength(1);
      expect(Number(await direct.get(keys[0]!))).toBe(1);
    } finally {
      direct.disconnect();
    }

    await redis.kill();
    expect((await call(i.app, 'getMe', {}, { key: user.apiKey })).status).toBe(200);
    expect(fallbackWarnings(i)).toBe(2); // once per outage
  });

  it('keeps enforcing the limit in-process while Redis is down', async () => {
    const i = await readyInstance(5);
    const user = await makeTenant(base.db);
    await redis.kill();
    const statuses = [];
    for (let n = 0; n < 6; n++) {
      statuses.push((await call(i.app, 'getMe', {}, { key: user.apiKey })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('turns the key cache off while the subscription is down, and stays correct', async () => {
    const i = await readyInstance();
    const user = await makeTenant(base.db);
    await call(i.app, 'getMe', {}, { key: user.apiKey });
    expect(i.deps.keyCache.has(hashApiKey(user.apiKey))).toBe(true);

    await redis.kill();
    await waitFor(() => !i.deps.keyCache.isLive(), 'the key cache to switch off');
    expect(i.deps.keyCache.has(hashApiKey(user.apiKey))).toBe(false);
    // No invalidation can be published now; the change must still apply at once.
    const { api_key: newKey } = await regenerateKey(base.db, user.accountId);
    expect((await call(i.app, 'getMe', {}, { key: user.apiKey })).status).toBe(401);
    expect((await call(i.app, 'getMe', {}, { key: newKey })).status).toBe(200);
    expect(i.deps.keyCache.has(hashApiKey(newKey))).toBe(false);

    await redis.start();
    await waitFor(() => i.deps.keyCache.isLive(), 'the key cache to come back');
    await call(i.app, 'getMe', {}, { key: newKey });
    expect(i.deps.keyCache.has(hashApiKey(newKey))).toBe(true);
  });

  it('answers every request while Redis is stalled, and returns when it answers again', async () => {
    const i = await readyInstance();
    const user = await makeTenant(base.db);
    redis.pause();
    try {
      const during = await Promise.all(
        Array.from({ length: 20 }, () => call(i.app, 'getMe', {}, { key: user.apiKey })),
      );
      for (let n = 0; n < 5; n++) {
        during.push(await call(i.app, 'getMe', {}, { key: user.apiKey }));
      }
      expect(during.map((r) => r.status)).toEqual(Array(25).fill(200));
      expect(i.deps.limiter.backend()).toBe('memory');
      expect(fallbackWarnings(i)).toBe(1);
    } finally {
      redis.resume();
    }
    await waitFor(async () => {
      await call(i.app, 'getMe', {}, { key: user.apiKey });
      return i.deps.limiter.backend() === 'redis';
    }, 'the limiter to use Redis again after the stall');
  });
});

describe('Redis unreachable from the start', () => {
  it('serves and limits with the in-process limiter', async () => {
    const i = await startInstance(`redis://127.0.0.1:${await freePort()}`, 5);
    const user = await makeTenant(base.db);
    const statuses = [];
    for (let n = 0; n < 6; n++) {
      statuses.push((await call(i.app, 'getMe', {}, { key: user.apiKey })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(i.deps.limiter.backend()).toBe('memory');
    expect(i.deps.keyCache.isLive()).toBe(false);
    const ready = await i.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ postgres: true, redis: false, limiter: 'memory' });
  });
});
