import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type DatabaseHandle } from '../../src/infra/db/client.js';
import { startPostgresCluster, type PostgresCluster } from '../helpers/postgresCluster.js';
import { ensureBuilt } from '../helpers/processes.js';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { startFleet, type Fleet } from '../helpers/serverFleet.js';
import {
  acknowledged,
  makeLoadAccounts,
  startWriteLoad,
  verifyWrites,
  type LoadAccount,
} from './writeLoad.js';

/**
 * Crash consistency: the server is killed with SIGKILL under write load
 * (addListItem and createOrUpdateContact from many accounts), and Postgres itself crashes
 * (`pg_ctl stop -m immediate`, no checkpoint) under the same load; after the restart every
 * write acknowledged with 200/201 is present and intact, and none is stored twice.
 * LOAD_SECONDS and LOAD_WORKERS scale the run (docs/reliability.md has the larger one).
 */
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 3);
const WORKERS = Number(process.env.LOAD_WORKERS ?? 24);
const ACCOUNTS = 8;
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
  url = await cluster.createDatabase('lk_crash');
  redis = await startRedisServer();
  fleet = await startFleet(url, 1, ENV, redis);
  handle = connectPostgres(url, { error: () => undefined });
  accounts = await makeLoadAccounts(handle.db, fleet.servers[0]!.url, ACCOUNTS);
}, 180_000);
afterAll(async () => {
  await fleet?.stop();
  await handle?.close().catch(() => undefined);
  await redis?.kill();
  await cluster?.destroy();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('crash consistency', () => {
  it('keeps every acknowledged write, intact and once, when the server is SIGKILLed under write load', async () => {
    const server = fleet!.servers[0]!;
    const load = startWriteLoad(() => server.url, accounts, WORKERS, 1_000_000);
    await sleep(LOAD_SECONDS * 1000);
    server.child.kill('SIGKILL');
    const killedAt = Date.now();
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await load.stop();

    const acked = load.attempts.filter(acknowledged);
    const cut = load.attempts.filter((a) => a.result?.status === 0).length;
    const rate = acked.filter((a) => a.sentAt < killedAt).length / LOAD_SECONDS;
    console.log(
      `SIGKILL: ${load.attempts.length} writes sent, ${acked.length} acknowledged (${Math.round(rate)}/s with ${WORKERS} workers), ${cut} cut off`,
    );
    expect(acked.length).toBeGreaterThan(20);
    expect(cut).toBeGreaterThan(0);
    // nothing but acknowledgements and cut connections: no 5xx under load
    expect(load.attempts.filter((a) => a.result!.status >= 300 && a.result!.status !== 0)).toEqual(
      [],
    );

    await fleet!.stop();
    fleet = await startFleet(url, 1, ENV, redis);
    const result = await verifyWrites(handle.db, fleet.servers[0]!.url, accounts, load.attempts);
    expect(result.acked).toBe(acked.length);
  }, 180_000);

  it('keeps every acknowledged write when Postgres crashes under write load (immediate stop, WAL replay)', async () => {
    const server = fleet!.servers[0]!;
    const load = startWriteLoad(() => server.url, accounts, WORKERS, 2_000_000);
    await sleep(LOAD_SECONDS * 1000);
    await cluster.stop('immediate');
    await sleep(1000);
    await cluster.start();
    await sleep(1500);
    await load.stop();

    const acked = load.attempts.filter(acknowledged);
    const refused = load.attempts.filter((a) => a.result!.status === 503).length;
    console.log(
      `Postgres crash: ${load.attempts.length} writes sent, ${acked.length} acknowledged, ${refused} answered 503`,
    );
    expect(server.child.exitCode, server.stderr() + server.stdout().slice(-3000)).toBeNull();
    expect(refused).toBeGreaterThan(0);
    // a write is acknowledged, or refused with 503: never a 500, never left unanswered
    expect(
      load.attempts
        .filter((a) => !acknowledged(a) && a.result!.status !== 503)
        .map((a) => a.result),
    ).toEqual([]);
    await verifyWrites(handle.db, server.url, accounts, load.attempts);
  }, 180_000);
});
