import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/admission/apiKeys.js';
import { KEY_EPOCH_KEY, publishAccountChanged } from '../../src/admission/invalidation.js';
import {
  regenerateKey,
  setBlocked,
  setPassword,
  setPlan,
} from '../../src/operator/operatorAccounts.js';
import { call, TRANSPORTS } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { startProbeApp, type ProbeApp } from '../helpers/probeMethods.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

let one: TestApp;
let two: TestApp;
let probe: ProbeApp;
let tenant: Tenant;

beforeAll(async () => {
  // Many wrong and regenerated keys come from one address here; the per-IP brake on
  // failed attempts has its own test file (authFailures.test.ts).
  const env = { FAILED_AUTH_PER_MINUTE: '100000' };
  one = await startTestApp({ env });
  // A second instance on the same database and Redis, as behind a load balancer.
  two = await startTestApp({ database: one.database, env });
  probe = await startProbeApp(one.deps);
  // Every test database starts its ids at 1 and invalidations are shared across
  // deployments; far-away ids keep other test files' invalidations off our accounts.
  await one.db.execute(
    sql`select setval(pg_get_serial_sequence('accounts', 'id'), ${randomInt(1e9, 2 ** 40)})`,
  );
  tenant = await makeTenant(one.db);
});
afterAll(async () => {
  await probe.app.close();
  await two.close();
  await one.close();
});

const UNAUTHORIZED = '{"error":"unauthorized"}';

function getMe(app: TestApp, key: string) {
  return call(app.app, 'getMe', {}, { key });
}

/** Postgres client checkouts while `fn` runs: the key lookup is getMe's only query. */
async function checkouts(t: TestApp, fn: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const count = () => n++;
  const pool = t.database.handle.pool!;
  pool.on('acquire', count);
  try {
    await fn();
  } finally {
    pool.off('acquire', count);
  }
  return n;
}

/**
 * Proves an instance answers `key` from its cache: a request that needs no Postgres.
 * Two requests warm it: a lookup is cached only under an epoch the instance saw before the
 * lookup began, so right after an account change the first request may only learn the new
 * epoch (docs/api-conventions.md). Another test file bumping the shared epoch meanwhile
 * costs a miss, so that case retries.
 */
async function expectWarm(t: TestApp, key: string): Promise<void> {
  const redis = t.deps.redis!;
  for (let attempt = 0; attempt < 5; attempt++) {
    await getMe(t, key);
    await getMe(t, key);
    const before = await redis.get(KEY_EPOCH_KEY);
    const used = await checkouts(t, async () => expect((await getMe(t, key)).status).toBe(200));
    if ((await redis.get(KEY_EPOCH_KEY)) !== before) continue;
    expect(used).toBe(0);
    expect(t.deps.keyCache.has(hashApiKey(key))).toBe(true);
    return;
  }
  throw new Error('the shared key epoch kept changing; could not prove the cache warm');
}

describe('where the key is read from (the authentication rules)', () => {
  it('accepts Authorization: Bearer', async () => {
    expect((await getMe(one, tenant.apiKey)).status).toBe(200);
  });

  it('accepts the Bearer scheme in any letter case', async () => {
    const res = await call(
      one.app,
      'getMe',
      {},
      {
        headers: { authorization: `bearer ${tenant.apiKey}` },
      },
    );
    expect(res.status).toBe(200);
  });

  it.each(TRANSPORTS)('accepts api_token via %s when there is no header', async (via) => {
    const res = await call(one.app, 'getMe', { api_token: tenant.apiKey }, { via });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(tenant.accountId);
  });

  it('prefers the header: a valid header with a wrong api_token succeeds', async () => {
    const res = await call(
      one.app,
      'getMe',
      { api_token: 'lk_wrong' },
      { key: tenant.apiKey, via: 'query' },
    );
    expect(res.status).toBe(200);
  });

  it('prefers the header: a wrong header with a valid api_token fails', async () => {
    const res = await call(one.app, 'getMe', { api_token: tenant.apiKey }, { key: 'lk_wrong' });
    expect(res.status).toBe(401);
  });

  it.each(TRANSPORTS)(
    'never hands api_token to the method as a parameter (via %s)',
    async (via) => {
      const res = await call(
        probe.app,
        'echoParams',
        { api_token: tenant.apiKey, page: '2' },
        {
          via,
        },
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ page: 2 });
    },
  );

  it('drops api_token from the parameters when the header is used too', async () => {
    const res = await call(probe.app, 'echoParams', { api_token: 'x' }, { key: tenant.apiKey });
    expect(res.body.data).toEqual({});
  });
});

describe('401 (the authentication rules, the error rules)', () => {
  const badHeaders: Array<[string, Record<string, string>]> = [
    ['no key at all', {}],
    ['a wrong key', { authorization: 'Bearer lk_not-a-real-key' }],
    ['an empty Bearer', { authorization: 'Bearer ' }],
    ['Bearer with two tokens', { authorization: 'Bearer a b' }],
    ['the Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['the bare key without a scheme', { authorization: 'KEY' }],
    ['a key over 512 characters', { authorization: `Bearer ${'k'.repeat(600)}` }],
  ];

  it.each(badHeaders)('answers %s with exactly {"error":"unauthorized"}', async (_, headers) => {
    const res = await one.app.inject({
      url: '/api/v1/getMe',
      headers: { accept: 'application/json', ...headers },
    });
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe(UNAUTHORIZED);
  });

  it('answers an empty or non-text api_token with 401', async () => {
    for (const url of ['/api/v1/getMe?api_token=', `/api/v1/getMe?api_token[]=${tenant.apiKey}`]) {
      const res = await one.app.inject({ url, headers: { accept: 'application/json' } });
      expect(res.statusCode).toBe(401);
      expect(res.body).toBe(UNAUTHORIZED);
    }
  });

  it('answers 401 as JSON even to a client that does not ask for JSON', async () => {
    const res = await one.app.inject({ url: '/api/v1/getMe' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('402 and 403 (the authentication rules)', () => {
  it('answers a key whose owner is on the free plan with 402 pro_required', async () => {
    const free = await makeTenant(one.db, { plan: 'free' });
    const res = await getMe(one, free.apiKey);
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error: expect.any(String), code: 'pro_required' });
  });

  it('answers a blocked account with 403', async () => {
    const blocked = await makeTenant(one.db);
    await setBlocked(one.db, blocked.accountId, true);
    const res = await getMe(one, blocked.apiKey);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: expect.any(String) });
  });
});

describe('changes apply on the very next request on every instance (the authentication rules)', () => {
  it('proves a warm cache answers without Postgres', async () => {
    const fresh = await makeTenant(one.db);
    expect(await checkouts(one, () => getMe(one, fresh.apiKey))).toBe(1);
    await expectWarm(one, fresh.apiKey);
  });

  it('fails a regenerated key on both instances after both cached it', async () => {
    const user = await makeTenant(one.db);
    await expectWarm(one, user.apiKey);
    await expectWarm(two, user.apiKey);

    const { api_key: newKey } = await regenerateKey(one.db, user.accountId);
    await publishAccountChanged(one.deps.redis!, user.accountId);

    const [onOne, onTwo] = [await getMe(one, user.apiKey), await getMe(two, user.apiKey)];
    expect(onOne.raw.body).toBe(UNAUTHORIZED);
    expect(onTwo.raw.body).toBe(UNAUTHORIZED);
    expect(onOne.status).toBe(401);
    expect(onTwo.status).toBe(401);
    expect((await getMe(one, newKey)).status).toBe(200);
    expect((await getMe(two, newKey)).status).toBe(200);
  });

  it('fails the old key after set-password on both instances after both cached it', async () => {
    const user = await makeTenant(one.db);
    await expectWarm(one, user.apiKey);
    await expectWarm(two, user.apiKey);

    const { api_key: newKey } = await setPassword(one.db, user.accountId, 'correct horse');
    await publishAccountChanged(two.deps.redis!, user.accountId);

    expect((await getMe(two, user.apiKey)).status).toBe(401);
    expect((await getMe(one, user.apiKey)).status).toBe(401);
    expect((await getMe(two, newKey)).status).toBe(200);
  });

  it('repeats the regeneration many times without one stale success', async () => {
    const user = await makeTenant(one.db);
    let key = user.apiKey;
    for (let i = 0; i < 25; i++) {
      await getMe(one, key);
      await getMe(two, key);
      const next = await regenerateKey(one.db, user.accountId);
      await publishAccountChanged(one.deps.redis!, user.accountId);
      expect([(await getMe(one, key)).status, (await getMe(two, key)).status]).toEqual([401, 401]);
      key = next.api_key;
    }
  });

  it('applies a plan change and a block on the next request of a warm instance', async () => {
    const user = await makeTenant(one.db);
    await expectWarm(two, user.apiKey);
    await setPlan(one.db, user.accountId, 'free');
    await publishAccountChanged(one.deps.redis!, user.accountId);
    expect((await getMe(two, user.apiKey)).status).toBe(402);

    await setPlan(one.db, user.accountId, 'pro');
    await publishAccountChanged(one.deps.redis!, user.accountId);
    await expectWarm(two, user.apiKey);
    await setBlocked(one.db, user.accountId, true);
    await publishAccountChanged(one.deps.redis!, user.accountId);
    expect((await getMe(two, user.apiKey)).status).toBe(403);
  });

  it('does not answer a wrong key from the cache of a right one', async () => {
    await expectWarm(one, tenant.apiKey);
    expect((await getMe(one, `${tenant.apiKey}x`)).status).toBe(401);
    expect((await getMe(one, tenant.apiKey.slice(0, -1))).status).toBe(401);
  });
});

describe('without Redis (operations: in-process equivalents)', () => {
  it('never caches keys, so every change applies at once', async () => {
    const solo = await startTestApp({ redis: false, database: one.database });
    try {
      const user = await makeTenant(solo.db);
      expect((await getMe(solo, user.apiKey)).status).toBe(200);
      expect(solo.deps.keyCache.isLive()).toBe(false);
      expect(await checkouts(solo, () => getMe(solo, user.apiKey))).toBe(1);
      await regenerateKey(solo.db, user.accountId);
      expect((await getMe(solo, user.apiKey)).status).toBe(401);
    } finally {
      await solo.close();
    }
  });
});
