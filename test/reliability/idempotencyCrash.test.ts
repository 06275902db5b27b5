import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type DatabaseHandle } from '../../src/infra/db/client.js';
import { startPostgresCluster, type PostgresCluster } from '../helpers/postgresCluster.js';
import { ensureBuilt, timedCall } from '../helpers/processes.js';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { startFleet, type Fleet } from '../helpers/serverFleet.js';
import {
  acknowledged,
  makeLoadAccounts,
  methodOf,
  startWriteLoad,
  verifyWrites,
  type LoadAccount,
} from './writeLoad.js';

/**
 * Idempotency keys across a crash: the server is SIGKILLed under a load of keyed writes
 * (addListItem and createOrUpdateContact), then every key is sent again to a fresh
 * instance. Each write must exist exactly once, each acknowledged write's repeat must get
 * the original answer, and a write whose answer was lost is done by its repeat, once.
 */
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 3);
const WORKERS = Number(process.env.LOAD_WORKERS ?? 24);
const ENV = { RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'error' };

let cluster: PostgresCluster;
let url: string;
let handle: DatabaseHandle;
let redis: RedisServer;
let fleet: Fleet | undefined;
let accounts: LoadAccount[];

beforeAll(async () => {
  await ensureBuilt();
  cluster = await startPostgresCluster();
  url = await cluster.createDatabase('lk_idempotency_crash');
  redis = await startRedisServer();
  fleet = await startFleet(url, 1, ENV, redis);
  handle = connectPostgres(url, { error: () => undefined });
  accounts = await makeLoadAccounts(handle.db, fleet.servers[0]!.url, 6);
}, 180_000);
afterAll(async () => {
  await fleet?.stop();
  await handle?.close().catch(() => undefined);
  await redis?.kill();
  await cluster?.destroy();
});

describe('idempotency keys across a SIGKILL', () => {
  it('replays every acknowledged answer and does every lost write exactly once', async () => {
    const server = fleet!.servers[0]!;
    const load = startWriteLoad(() => server.url, accounts, WORKERS, 1, true);
    await new Promise((r) => setTimeout(r, LOAD_SECONDS * 1000));
    server.child.kill('SIGKILL');
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await load.stop();
    const cut = load.attempts.filter((a) => a.result?.status === 0);
    const acked = load.attempts.filter(acknowledged);
    console.log(
      `keyed writes: ${load.attempts.length} sent, ${acked.length} acknowledged, ${cut.length} cut off`,
    );
    expect(cut.length).toBeGreaterThan(0);
    expect(acked.length).toBeGreaterThan(20);

    await fleet!.stop();
    fleet = await startFleet(url, 1, ENV, redis);
    const fresh = fleet.servers[0]!.url;
    for (const a of load.attempts) {
      const { tenant } = accounts[a.account]!;
      const repeat = await timedCall(fresh, methodOf(a), a.params, tenant.apiKey);
      if (acknowledged(a)) {
        expect(repeat.headers.get('idempotent-replayed'), `k${a.seq}`).toBe('true');
        expect([repeat.status, repeat.body]).toEqual([a.result!.status, a.result!.body]);
      } else {
        // lost in the crash: done now, or done before the kill and replayed now
        expect(repeat.status, `k${a.seq}: ${JSON.stringify(repeat.body)}`).toBeLessThan(300);
      }
      a.result = repeat;
    }
    // every attempt now acknowledged: each stored exactly once, intact, counters exact
    const result = await verifyWrites(handle.db, fresh, accounts, load.attempts);
    expect(result.acked).toBe(load.attempts.length);
  }, 240_000);
});
