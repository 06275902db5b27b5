import { connect, type AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { makeTenant } from '../helpers/factories.js';
import { ensureBuilt, postApi } from '../helpers/processes.js';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { startFleet, type Fleet } from '../helpers/serverFleet.js';
import { startTestApp } from '../helpers/testApp.js';
import { createListViaApi } from '../helpers/viaApi.js';
import { waitFor } from '../helpers/waitFor.js';
import {
  acknowledged,
  makeLoadAccounts,
  startWriteLoad,
  verifyWrites,
  type LoadAccount,
} from './writeLoad.js';

/**
 * Graceful shutdown under load: on SIGTERM the requests in flight complete,
 * idle keep-alive connections close, new requests get 503 while closing (or find the port
 * closed), and the process exits 0 within 10 s, keeping every acknowledged write.
 * (test/integration/process.test.ts covers one request whose body is still arriving.)
 */
const ENV = { RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'error' };

let database: TestDatabase;
let redis: RedisServer;
let fleet: Fleet | undefined;
let accounts: LoadAccount[];

beforeAll(async () => {
  await ensureBuilt();
  database = await createTestDatabase();
  redis = await startRedisServer();
  fleet = await startFleet(database.url, 1, ENV, redis);
  accounts = await makeLoadAccounts(database.handle.db, fleet.servers[0]!.url, 4);
}, 180_000);
afterAll(async () => {
  await fleet?.stop();
  await redis?.kill();
  await database?.drop();
});

/** A keep-alive connection that has served one request and now sits idle. */
async function idleKeepAlive(url: string) {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  let answer = '';
  socket.on('data', (d: Buffer) => (answer += d.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
  socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n');
  for (let i = 0; i < 200 && !answer.includes('\r\n\r\n'); i++)
    await new Promise((r) => setTimeout(r, 10));
  expect(answer).toMatch(/^HTTP\/1\.1 200/);
  // wrapped: an async function returning the promise itself would wait for the close
  return { closed };
}

describe('SIGTERM under write load', () => {
  it('finishes in-flight requests, closes idle connections, refuses new ones, exits 0 within 10 s, loses nothing', async () => {
    const server = fleet!.servers[0]!;
    const { closed: idleClosed } = await idleKeepAlive(server.url);
    const load = startWriteLoad(() => server.url, accounts, 16, 1);
    await new Promise((r) => setTimeout(r, 2000));

    const signalAt = Date.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    const exitAt = Date.now();
    await load.stop();

    const after = load.attempts.filter((a) => a.sentAt >= signalAt);
    const inFlight = load.attempts.filter(
      (a) => a.sentAt < signalAt && a.sentAt + a.result!.ms > signalAt,
    );
    const outcome = (s: number) => (s === 0 ? 'cut' : String(s));
    const tally = (xs: typeof after) =>
      xs.reduce<Record<string, number>>((m, a) => {
        const k = outcome(a.result!.status);
        m[k] = (m[k] ?? 0) + 1;
        return m;
      }, {});
    console.log(
      `SIGTERM: exit ${JSON.stringify(exit)} after ${exitAt - signalAt} ms; in flight at the signal ${JSON.stringify(tally(inFlight))}; sent after ${JSON.stringify(tally(after))}; idle keep-alive closed after ${(await idleClosed) - signalAt} ms`,
    );

    expect(exit).toEqual({ code: 0, signal: null });
    expect(exitAt - signalAt).toBeLessThan(10_000);
    expect(await idleClosed).toBeLessThanOrEqual(exitAt);
    // in flight at the signal: completed (a request the server had not yet read may get 503)
    expect(inFlight.filter((a) => acknowledged(a)).length).toBeGreaterThan(0);
    for (const a of load.attempts) {
      const { status, body, headers, error } = a.result!;
      // an answer is a success or a 503; a connection the closing server no longer accepts is refused
      if (status === 0)
        expect(error).toMatch(/ECONNREFUSED|ECONNRESET|other side closed|SocketError/);
      else if (status === 503) {
        expect(body).toMatchObject({ error: expect.any(String) });
        expect(headers.get('retry-after')).toMatch(/^\d+$/);
      } else expect(status).toBeLessThan(300);
    }
    expect(after.every((a) => !acknowledged(a) || a.sentAt < exitAt)).toBe(true);

    fleet = await startFleet(database.url, 1, ENV, redis);
    await verifyWrites(database.handle.db, fleet.servers[0]!.url, accounts, load.attempts);
  }, 120_000);
});

/**
 * A listening test app with one list of a number field `n`, and a second connection that holds
 * list_items locked (`blocker`), so a request touching it waits until the test lets it go.
 */
async function appWithLockedList() {
  const t = await startTestApp();
  const tenant = await makeTenant(t.db);
  const list = await createListViaApi(t.app, tenant, [{ name: 'N', slug: 'n', type: 'number' }]);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const blocker = new pg.Client({ connectionString: t.database.url });
  await blocker.connect();
  await blocker.query('BEGIN');
  await blocker.query('LOCK TABLE list_items IN ACCESS EXCLUSIVE MODE');
  return {
    t,
    tenant,
    listId: list.id,
    port,
    blocker,
    /**
     * Until a statement of this database waits for the lock: pg_locks is the whole server's,
     * and other test files' waits once let the test go on before the request had even started.
     */
    waiting: (what: string) =>
      waitFor(async () => {
        const r = await blocker.query(
          // list_items or one of its partitions (a read names its list's: listRecords.ts)
          `SELECT count(*)::int AS n FROM pg_locks
           WHERE NOT granted
             AND relation IN (SELECT 'list_items'::regclass UNION ALL
                              SELECT inhrelid FROM pg_inherits
                              WHERE inhparent = 'list_items'::regclass)
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        return r.rows[0].n > 0;
      }, what),
    async close() {
      await blocker.end();
      await t.close();
    },
  };
}

describe('requests that reach a closing server (docs/decisions.md: 503 JSON with Retry-After)', () => {
  it('answers a request arriving on a busy connection while closing with the catalog’s 503 and Retry-After', async () => {
    // the in-flight request waits on a lock until the test lets it go
    const locked = await appWithLockedList();
    const { t, tenant, port, blocker } = locked;
    try {
      const body = JSON.stringify({ schema_id: locked.listId, data: { n: 1 } });
      const head = (method: string, length: number) =>
        `POST /api/v1/${method} HTTP/1.1\r\nHost: t\r\nAccept: application/json\r\nAuthorization: Bearer ${tenant.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
      const socket = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString()));
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.write(head('addListItem', Buffer.byteLength(body)) + body);
      await locked.waiting('the insert to wait for the lock');

      // SIGTERM's app.close(): the connection is busy, so it stays open; a request on it now
      // reaches a closing server
      const closing = t.app.close();
      await new Promise((r) => setTimeout(r, 100));
      socket.write(head('getMe', 2) + '{}');
      await new Promise((r) => setTimeout(r, 200));
      await blocker.query('ROLLBACK');
      await closing;
      await closed;

      const answers = received.split(/(?=HTTP\/1\.1 )/);
      expect(answers, received).toHaveLength(2);
      expect(answers[0]).toMatch(/^HTTP\/1\.1 201 /);
      expect(answers[1]).toMatch(/^HTTP\/1\.1 503 /);
      expect(answers[1]).toMatch(/\r\nretry-after: \d+\r\n/i);
      expect(answers[1]).toMatch(/\r\nconnection: close\r\n/i);
      const json = JSON.parse(answers[1]!.slice(answers[1]!.indexOf('\r\n\r\n') + 4)) as Record<
        string,
        unknown
      >;
      expect(json).toEqual({ error: 'service_unavailable', message: expect.any(String) });
    } finally {
      await locked.close();
    }
  }, 60_000);
});

describe('a handler whose client has gone when SIGTERM comes', () => {
  it('is waited for by app.close(), so the database pool is not closed under it', async () => {
    const locked = await appWithLockedList();
    const { t, blocker } = locked;
    try {
      // the read's count waits on the lock; its page, after it, needs the pool again
      const client = new AbortController();
      const read = postApi(
        `http://127.0.0.1:${locked.port}`,
        'getListItems',
        { schema_id: locked.listId, filters: { n: '<,5' } },
        locked.tenant.apiKey,
        client.signal,
      ).catch(() => 'aborted');
      await locked.waiting('the count to wait for the lock');
      client.abort();
      expect(await read).toBe('aborted');

      // SIGTERM's app.close(): no connection is open, but the handler still runs
      let closed = false;
      const closing = t.app.close().then(() => (closed = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(closed).toBe(false);
      await blocker.query('ROLLBACK');
      await closing;
      expect(closed).toBe(true);
    } finally {
      await locked.close();
    }
  }, 60_000);
});
