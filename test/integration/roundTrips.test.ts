import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { KeyLookup } from '../../src/admission/authenticate.js';
import { KEY_EPOCH_KEY, publishAccountChanged } from '../../src/admission/invalidation.js';
import { buildApp } from '../../src/app.js';
import type { AppDeps } from '../../src/appDeps.js';
import { loadConfig } from '../../src/config.js';
import { regenerateKey } from '../../src/operator/operatorAccounts.js';
import { createRuntime } from '../../src/runtime.js';
import { call } from '../helpers/call.js';
import { makeTenant } from '../helpers/factories.js';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { startTestApp, TEST_ENCRYPTION_KEY, type TestApp } from '../helpers/testApp.js';
import { waitFor } from '../helpers/waitFor.js';

/**
 * The budget: per request, authentication and the rate limit cost at most one Redis
 * round trip and at most one Postgres round trip. Counted at the clients: every command the
 * app sends on its Redis connection, every Postgres connection checkout and every key
 * lookup. A throwaway redis-server keeps other test files' key epoch bumps out.
 */
interface Instance {
  app: FastifyInstance;
  deps: AppDeps;
  /** Redis commands sent since the last `take()` */
  commands: string[];
  lookups: number;
  checkouts: number;
  /** reads and resets the counters */
  take(): { commands: string[]; lookups: number; checkouts: number };
  /** the next lookup, once it has read Postgres, waits for `release` before answering */
  holdNextLookup(): { looked: Promise<void>; release: () => void };
  close(): Promise<void>;
}

let base: TestApp;
let redis: RedisServer;
let direct: Redis;
const open: Instance[] = [];

beforeAll(async () => {
  base = await startTestApp({ redis: false });
  redis = await startRedisServer();
  direct = new Redis(redis.url);
});
afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
});
afterAll(async () => {
  direct.disconnect();
  await redis.kill();
  await base.close();
});

async function startInstance(env: Record<string, string> = {}, withRedis = true) {
  const config = loadConfig({
    DATABASE_URL: base.database.url,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    ...(withRedis ? { REDIS_URL: redis.url } : {}),
    LOG_LEVEL: 'silent',
    ...env,
  });
  let hold: { looked: () => void; released: Promise<void> } | undefined;
  const wrapKeyLookup =
    (lookup: KeyLookup): KeyLookup =>
    async (hash) => {
      instance.lookups++;
      const found = await lookup(hash);
      const held = hold;
      hold = undefined;
      if (held) {
        held.looked();
        await held.released;
      }
      return found;
    };
  const runtime = createRuntime(
    config,
    { ...base.database.handle, close: async () => {} },
    pino({ level: 'silent' }),
    {
      redisPrefix: `lk_rt:${randomBytes(4).toString('hex')}:`,
      wrapKeyLookup,
      // 30 s into a minute, so no test's counts straddle a window
      clock: () => new Date(Date.UTC(2030, 0, 1, 10, 0, 30)),
    },
  );
  const app = buildApp(runtime.deps);
  await app.ready();
  const countCheckout = () => instance.checkouts++;
  base.database.handle.pool!.on('acquire', countCheckout);
  const instance: Instance = {
    app,
    deps: runtime.deps,
    commands: [],
    lookups: 0,
    checkouts: 0,
    take() {
      const taken = { commands: this.commands, lookups: this.lookups, checkouts: this.checkouts };
      Object.assign(this, { commands: [], lookups: 0, checkouts: 0 });
      return taken;
    },
    holdNextLookup() {
      let looked!: () => void;
      let release!: () => void;
      const lookedPromise = new Promise<void>((r) => (looked = r));
      hold = { looked, released: new Promise<void>((r) => (release = r)) };
      return { looked: lookedPromise, release };
    },
    async close() {
      base.database.handle.pool!.off('acquire', countCheckout);
      await app.close();
      await runtime.close();
    },
  };
  const connection = runtime.deps.redis;
  if (connection) {
    const send = connection.sendCommand.bind(connection);
    connection.sendCommand = ((command, stream) => {
      instance.commands.push(command.name);
      return send(command, stream);
    }) as typeof connection.sendCommand;
    await waitFor(() => runtime.deps.keyCache.isLive(), 'the key cache to go live');
  }
  open.push(instance);
  instance.take();
  return instance;
}

const getMe = (i: Instance, key: string) => call(i.app, 'getMe', {}, { key });

describe('the round-trip budget of authentication and the rate limit', () => {
  it('answers a warm key with one Redis round trip and no Postgres, request after request', async () => {
    const i = await startInstance();
    const user = await makeTenant(base.db);
    await getMe(i, user.apiKey);
    i.take();

    const remaining: unknown[] = [];
    for (let n = 0; n < 20; n++) {
      const res = await getMe(i, user.apiKey);
      expect(res.status).toBe(200);
      remaining.push(res.headers['x-ratelimit-remaining']);
    }
    const { commands, lookups, checkouts } = i.take();
    expect(commands).toEqual(Array(20).fill('evalsha'));
    expect([lookups, checkouts]).toEqual([0, 0]);
    // still counted exactly: 1 + 20 of 120
    expect(remaining.at(-1)).toBe('99');
  });

  it('answers a cold key with one Postgres lookup and one Redis round trip, then warm', async () => {
    const i = await startInstance();
    const user = await makeTenant(base.db);
    i.take();
    expect((await getMe(i, user.apiKey)).status).toBe(200);
    const cold = i.take();
    expect(cold.commands).toHaveLength(1);
    expect([cold.lookups, cold.checkouts]).toEqual([1, 1]);

    expect((await getMe(i, user.apiKey)).status).toBe(200);
    const warm = i.take();
    expect([warm.commands.length, warm.lookups, warm.checkouts]).toEqual([1, 0, 0]);
  });

  it('checks a cached key in Postgres once after any account changes, then answers it warm', async () => {
    const i = await startInstance();
    const user = await makeTenant(base.db);
    const other = await makeTenant(base.db);
    await getMe(i, user.apiKey);
    await publishAccountChanged(direct, other.accountId);
    i.take();

    const res = await getMe(i, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('118');
    // the script did not count (the epoch had moved); the count follows the re-check
    const rechecked = i.take();
    expect([rechecked.commands.length, rechecked.lookups]).toEqual([2, 1]);

    await getMe(i, user.apiKey);
    const warm = i.take();
    expect([warm.commands.length, warm.lookups]).toEqual([1, 0]);
  });

  it('refuses an unknown key with one lookup and one Redis command, and a braked client with neither', async () => {
    const i = await startInstance({ FAILED_AUTH_PER_MINUTE: '2' });
    const user = await makeTenant(base.db);
    for (let n = 0; n < 2; n++) {
      expect((await getMe(i, `lk_wrong_${n}`)).status).toBe(401);
      const refused = i.take();
      expect([refused.commands.length, refused.lookups]).toEqual([1, 1]);
    }
    expect((await getMe(i, 'lk_wrong_again')).status).toBe(429);
    expect((await getMe(i, user.apiKey)).status).toBe(429);
    const braked = i.take();
    expect([braked.commands.length, braked.lookups, braked.checkouts]).toEqual([0, 0, 0]);
  });

  it('without Redis, costs one Postgres lookup and no Redis per request', async () => {
    const i = await startInstance({}, false);
    const user = await makeTenant(base.db);
    i.take();
    for (let n = 0; n < 3; n++) expect((await getMe(i, user.apiKey)).status).toBe(200);
    expect(i.deps.redis).toBeUndefined();
    expect(i.take().lookups).toBe(3);
  });
});

describe('a lookup that overlaps a key change (the authentication rules)', () => {
  it('does not cache a miss whose lookup read the key before an epoch bump it could not see', async () => {
    const i = await startInstance();
    const user = await makeTenant(base.db);
    const held = i.holdNextLookup();
    const pending = getMe(i, user.apiKey);
    await held.looked;
    // Committed and announced after the lookup read Postgres; the message is not sent, as
    // if still on its way, so only the epoch can tell.
    await regenerateKey(base.db, user.accountId);
    await direct.incr(KEY_EPOCH_KEY);
    held.release();
    expect((await pending).status).toBe(200);

    expect((await getMe(i, user.apiKey)).status).toBe(401);
  });

  it('does not keep a re-check that read the key before a later epoch bump', async () => {
    const i = await startInstance();
    const user = await makeTenant(base.db);
    await getMe(i, user.apiKey);
    await getMe(i, user.apiKey);
    await direct.incr(KEY_EPOCH_KEY); // an unrelated change: the next request re-checks
    const held = i.holdNextLookup();
    const pending = getMe(i, user.apiKey);
    await held.looked;
    await regenerateKey(base.db, user.accountId);
    await direct.incr(KEY_EPOCH_KEY);
    held.release();
    expect((await pending).status).toBe(200);

    expect((await getMe(i, user.apiKey)).status).toBe(401);
  });
});
