import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../../src/infra/db/client.js';
import { isDatabaseUnavailable } from '../../src/infra/db/databaseErrors.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * The pool's waits (src/infra/db/client.ts): a busy pool's next query waits for a free
 * connection past the 2 s that reaching a server may take, a server that never answers
 * still fails fast, as a 503's error, and so does a query whose answer never comes (a proxy
 * stops passing it on; src/infra/db/unansweredQueries.ts), while a connection that answers
 * is left alone.
 */
let database: TestDatabase;
const log = pino({ level: 'silent' });

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('the Postgres pool', () => {
  it('lets a query wait past 2 s for the one busy connection, and runs it', async () => {
    const handle = connectPostgres(database.url, log, { max: 1 });
    try {
      const busy = handle.pool!.query('select pg_sleep(2.5)');
      // queued behind the sleep: before, it failed with "timeout exceeded when trying to connect"
      const started = Date.now();
      const next = await handle.pool!.query<{ one: number }>('select 1 as one');
      expect(next.rows[0]!.one).toBe(1);
      expect(Date.now() - started).toBeGreaterThan(2000);
      await busy;
    } finally {
      await handle.close();
    }
  });

  it('gives up on a server that accepts the connection and never answers, as unavailable', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const handle = connectPostgres(`postgres://postgres@127.0.0.1:${port}/none`, log);
    try {
      const started = Date.now();
      const error = await handle.pool!.query('select 1').then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(error)).toBe(true);
      // the connect timeout ended it, not the pool's 10 s wait
      expect(Date.now() - started).toBeLessThan(6000);
    } finally {
      await handle.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('ends a query whose answer never comes, as unavailable, and reconnects', async () => {
    const proxy = await quietingProxy(database.url);
    // statement timeout 0.5 s: a query unanswered 2.5 s ends its connection
    const handle = connectPostgres(proxy.url, log, { max: 1, statementTimeoutMs: 500 });
    const pool = handle.pool!;
    const backend = () => backendPid(pool);
    try {
      const first = await backend();
      // the open connection's bytes stop reaching Postgres: a network gone quiet
      proxy.quietOpenConnections();
      const started = Date.now();
      const error = await pool.query('select 1').then(
        () => undefined,
        (err: unknown) => err,
      );
      const waited = Date.now() - started;
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(waited).toBeGreaterThanOrEqual(2500);
      expect(waited).toBeLessThan(6000);
      // the pool opened another connection, which answers
      expect(await backend()).not.toBe(first);
    } finally {
      await handle.close();
      await proxy.close();
    }
  });

  it('leaves alone a connection that answers, busy or idle past the limit', async () => {
    const handle = connectPostgres(database.url, log, { max: 1, statementTimeoutMs: 200 });
    const pool = handle.pool!;
    const backend = () => backendPid(pool);
    try {
      const first = await backend();
      // busy: queries back to back for longer than the 2.2 s limit, each answered
      const until = Date.now() + 3500;
      while (Date.now() < until) await pool.query('select pg_sleep(0.05)');
      // idle past the limit and two sweeps
      await new Promise((resolve) => setTimeout(resolve, 4500));
      expect(await backend()).toBe(first);
    } finally {
      await handle.close();
    }
  });
});

/** The pid of the Postgres backend the pool's (one) connection talks to. */
async function backendPid(pool: pg.Pool): Promise<number> {
  return (await pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
}

/**
 * A TCP proxy to the database of `url`. `quietOpenConnections` stops passing on what the
 * client sends over the connections open now (as a network partition would, the sockets
 * stay open); connections opened later pass as before.
 */
async function quietingProxy(url: string) {
  const target = new URL(url);
  const open = new Set<{ quiet: boolean; sockets: Socket[] }>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    const link = { quiet: false, sockets: [client, upstream] };
    open.add(link);
    client.on('data', (chunk) => {
      if (!link.quiet) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      open.delete(link);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of link.sockets) socket.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  return {
    url: proxied.toString(),
    quietOpenConnections: () => {
      for (const link of open) link.quiet = true;
    },
    close: async () => {
      for (const link of open) for (const socket of link.sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
