import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { ensureBuilt, runCli, timedCall, type Timed } from '../helpers/processes.js';
import { startFleet, type Fleet } from '../helpers/serverFleet.js';
import { TEST_ENCRYPTION_KEY } from '../helpers/testApp.js';
import { waitFor } from '../helpers/waitFor.js';

/**
 * Redis outage (docs/decisions.md: keep serving when Redis is unreachable). Two server processes
 * share a throwaway redis-server, which is killed for 10 s under steady load: no answer is
 * a 5xx, the limiter falls back in-process and is back on Redis within 5 s of Redis
 * returning, and a key regenerated after the outage fails at once on both instances.
 * (test/integration/redisOutage.test.ts covers the fallback in-process, stalls included.)
 */
const OUTAGE_MS = Number(process.env.REDIS_OUTAGE_MS ?? 10_000);

let database: TestDatabase;
let fleet: Fleet;
let tenant: Tenant;
let listId: string;

beforeAll(async () => {
  await ensureBuilt();
  database = await createTestDatabase();
  fleet = await startFleet(database.url, 2, {
    RATE_LIMIT_PER_MINUTE: '100000',
    LOG_LEVEL: 'error',
  });
  tenant = await makeTenant(database.handle.db);
  const list = await timedCall(
    fleet.servers[0]!.url,
    'createListSchema',
    {
      name: 'Load',
      project_uuid: tenant.projectUuid,
      fields: [{ name: 'I', slug: 'i', type: 'number' }],
    },
    tenant.apiKey,
  );
  listId = list.body.data.id;
}, 180_000);
afterAll(async () => {
  await fleet?.stop();
  await database?.drop();
});

async function ready(url: string) {
  const res = await fetch(`${url}/readyz`);
  return (await res.json()) as { redis: boolean; limiter: string; key_cache: string };
}

describe('Redis stopped for 10 s under steady load', () => {
  it('answers everything without a 5xx, falls back in-process, returns to Redis within 5 s', async () => {
    const urls = fleet.servers.map((s) => s.url);
    for (const url of urls)
      await waitFor(async () => (await ready(url)).key_cache === 'live', 'key cache');
    const samples: (Timed & { sentAt: number })[] = [];
    let running = true;
    let n = 0;
    const worker = async (w: number) => {
      while (running) {
        const i = n++;
        const url = urls[(w + i) % urls.length]!;
        const sentAt = Date.now();
        const res =
          i % 2 === 0
            ? await timedCall(url, 'addListItem', { schema_id: listId, data: { i } }, tenant.apiKey)
            : await timedCall(url, 'getListItems', { schema_id: listId, limit: 5 }, tenant.apiKey);
        samples.push({ ...res, sentAt });
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    const workers = Array.from({ length: 4 }, (_, w) => worker(w));

    await new Promise((r) => setTimeout(r, 1500));
    await fleet.redis.kill();
    const down = Date.now();
    await waitFor(
      async () => {
        const states = await Promise.all(urls.map(ready));
        return states.every((s) => s.limiter === 'memory');
      },
      'both instances to fall back to the in-process limiter',
      OUTAGE_MS,
    );
    await new Promise((r) => setTimeout(r, Math.max(0, down + OUTAGE_MS - Date.now())));
    await fleet.redis.start();
    const up = Date.now();
    await waitFor(
      async () => {
        const states = await Promise.all(urls.map(ready));
        return states.every((s) => s.limiter === 'redis' && s.redis);
      },
      'both instances to use Redis again',
      15_000,
    );
    const backAfterMs = Date.now() - up;
    await new Promise((r) => setTimeout(r, 1000));
    running = false;
    await Promise.all(workers);

    const during = samples.filter((s) => s.sentAt >= down && s.sentAt < up);
    console.log(
      `redis outage: ${samples.length} requests, ${during.length} during ${up - down} ms down, statuses ${JSON.stringify(
        samples.reduce<Record<number, number>>(
          (m, s) => ((m[s.status] = (m[s.status] ?? 0) + 1), m),
          {},
        ),
      )}, back on Redis after ${backAfterMs} ms`,
    );
    expect(during.length).toBeGreaterThan(20);
    expect(samples.filter((s) => s.status === 0 || s.status >= 500)).toEqual([]);
    expect(samples.filter((s) => s.status >= 300)).toEqual([]);
    expect(backAfterMs).toBeLessThan(5000);
  }, 120_000);

  it('fails a key regenerated after the outage at once on both instances, whose caches are warm', async () => {
    const urls = fleet.servers.map((s) => s.url);
    const user = await makeTenant(database.handle.db);
    for (const url of urls) {
      await waitFor(
        async () => (await ready(url)).key_cache === 'live',
        'the key cache subscription',
      );
      expect((await timedCall(url, 'getMe', {}, user.apiKey)).status).toBe(200);
    }
    const cli = await runCli(
      ['account', 'regenerate-key', '--id', String(user.accountId), '--json'],
      {
        DATABASE_URL: database.url,
        REDIS_URL: fleet.redis.url,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        LOG_LEVEL: 'error',
      },
    );
    expect(cli.code, cli.stderr).toBe(0);
    const { api_key: fresh } = JSON.parse(cli.stdout) as { api_key: string };
    for (const url of urls) {
      expect((await timedCall(url, 'getMe', {}, user.apiKey)).status).toBe(401);
      expect((await timedCall(url, 'getMe', {}, fresh)).status).toBe(200);
    }
  }, 60_000);
});
