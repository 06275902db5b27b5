import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../../src/infra/db/client.js';
import { migratePostgres } from '../../src/infra/db/migrate.js';
import { call } from '../helpers/call.js';
import type { TestDatabase } from '../helpers/database.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import {
  startPostgresCluster,
  startReplica,
  type PostgresCluster,
} from '../helpers/postgresCluster.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { createListViaApi } from '../helpers/viaApi.js';

/**
 * Read replicas against a real streaming replica: a throwaway primary cluster, its
 * pg_basebackup started as a standby, and two app instances sharing Redis — the way a
 * deployment with DATABASE_REPLICA_URLS runs.
 */
let primary: PostgresCluster;
let replica: PostgresCluster;
let database: TestDatabase;
let a: TestApp;
let b: TestApp;
let me: Tenant;
let listId: string;

beforeAll(async () => {
  primary = await startPostgresCluster();
  const url = await primary.createDatabase('lk');
  await migratePostgres(url);
  replica = await startReplica(primary);
  const handle = connectPostgres(url, pino({ level: 'silent' }));
  database = { name: 'lk', url, handle, drop: async () => handle.close() };
  const env = { DATABASE_REPLICA_URLS: replica.url('lk'), RATE_LIMIT_PER_MINUTE: '1000000' };
  const redisPrefix = `lk_test:${randomBytes(6).toString('hex')}:`;
  a = await startTestApp({ database, env, redisPrefix });
  b = await startTestApp({ database, env, redisPrefix });
  me = await makeTenant(a.db);
  listId = (
    await createListViaApi(a.app, me, [{ slug: 'n', name: 'N', type: 'number', is_required: true }])
  ).id;
  await untilReplicaUp(a);
  await untilReplicaUp(b);
}, 120_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await database?.drop();
  await replica?.destroy();
  await primary?.destroy();
});

const replicaOf = (t: TestApp) => t.deps.replication!.replicas.replicas[0]!;

async function untilReplicaUp(t: TestApp, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!replicaOf(t).state.up || replicaOf(t).state.paused) {
    if (Date.now() > deadline) throw new Error('the replica never came up');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Reads until the replica serves one (it has replayed the caller's writes): that read's values. */
async function untilServedByReplica(t: TestApp): Promise<number[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const before = replicaOf(t).state.reads;
    const values = await valuesRead(t);
    if (replicaOf(t).state.reads === before + 1) return values;
    if (Date.now() > deadline) throw new Error('no read was served by the replica');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const add = (t: TestApp, n: number) =>
  call(t.app, 'addListItem', { schema_id: listId, data: { n } }, { key: me.apiKey });
const valuesRead = async (t: TestApp) => {
  const res = await call(
    t.app,
    'getListItems',
    { schema_id: listId, order_by: 'n,asc', limit: 1000 },
    { key: me.apiKey },
  );
  expect(res.status).toBe(200);
  return res.body.data.map((r: { n: number }) => r.n) as number[];
};

async function onReplica(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: replica.url('lk') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('read replicas (DATABASE_REPLICA_URLS)', () => {
  it('serve reads once they have replayed the caller’s writes: read-your-writes across two instances', async () => {
    const servedBefore = replicaOf(b).state.reads;
    for (let n = 0; n < 40; n++) {
      expect((await add(a, n)).status).toBe(201);
      // the other instance reads at once: a replica that has not replayed the write is skipped
      expect(await valuesRead(b)).toContain(n);
      if (n % 5 === 4) await new Promise((r) => setTimeout(r, 250));
    }
    // once the replica has caught up it serves, with every record
    expect((await untilServedByReplica(b)).length).toBe(40);
    expect(replicaOf(b).state.reads).toBeGreaterThan(servedBefore);
  });

  it('a caller with no write on record reads from a replica', async () => {
    const reader = await makeTenant(a.db);
    await new Promise((r) => setTimeout(r, 300));
    const before = replicaOf(b).state.reads;
    const res = await call(b.app, 'getListSchemas', {}, { key: reader.apiKey });
    expect(res.status).toBe(200);
    expect(replicaOf(b).state.reads).toBe(before + 1);
  });

  it('writes and primary-only reads never go to a replica', async () => {
    const before = replicaOf(a).state.reads;
    expect((await add(a, 1000)).status).toBe(201);
    expect((await call(a.app, 'getChanges', {}, { key: me.apiKey })).status).toBe(200);
    expect((await call(a.app, 'getMe', {}, { key: me.apiKey })).status).toBe(200);
    expect(replicaOf(a).state.reads).toBe(before);
  });

  it('replay paused: reads of a caller who wrote since go to the primary', async () => {
    await onReplica('select pg_wal_replay_pause()');
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(replicaOf(b).state.paused).toBe(true);
      const before = replicaOf(b).state.reads;
      expect((await add(a, 2000)).status).toBe(201);
      expect(await valuesRead(b)).toContain(2000);
      expect(replicaOf(b).state.reads).toBe(before);
    } finally {
      await onReplica('select pg_wal_replay_resume()');
    }
    await untilReplicaUp(a);
    await untilReplicaUp(b);
  });

  it('/readyz and /metrics report the replica', async () => {
    // a read once the replica has replayed everything: served by it (waited for, not a fixed
    // pause: on a loaded machine the replay took longer than 300 ms once)
    await untilServedByReplica(a);
    const ready = await a.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().replicas).toEqual([
      { name: '1', up: true, replay_paused: false, lag_bytes: expect.any(Number) },
    ]);
    const metrics = (await a.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/^listkeeper_db_replica_up\{replica="1"\} 1$/m);
    expect(metrics).toMatch(/^listkeeper_db_replica_lag_bytes\{replica="1"\} \d+$/m);
    expect(metrics).toMatch(
      /^listkeeper_db_replica_reads_total\{replica="1",outcome="served"\} [1-9]/m,
    );
  });

  it('the replica stopped under load: every request still answered, then it is used again', async () => {
    let stop = false;
    const statuses: number[] = [];
    let n = 3000;
    const worker = async (t: TestApp, write: boolean) => {
      while (!stop) {
        const res = write
          ? await add(t, n++)
          : await call(t.app, 'getListItems', { schema_id: listId, limit: 5 }, { key: me.apiKey });
        statuses.push(res.status);
      }
    };
    const load = [worker(a, true), worker(a, false), worker(b, false), worker(b, false)];
    await new Promise((r) => setTimeout(r, 500));
    await replica.stop('immediate');
    await new Promise((r) => setTimeout(r, 1500));
    stop = true;
    await Promise.all(load);
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
    expect(replicaOf(b).state.up).toBe(false);

    await replica.start();
    await untilReplicaUp(b, 30_000);
    // once it has replayed what was written while it was down, it serves reads again
    await untilServedByReplica(b);
  });
});
