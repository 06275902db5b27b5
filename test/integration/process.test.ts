import { readFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { databaseUrl, TEST_POSTGRES_URL, TEST_REDIS_URL } from '../helpers/env.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { freePort } from '../helpers/freePort.js';
import {
  callHttp,
  ensureBuilt,
  ROOT,
  run,
  startServer,
  type ServerProcess,
} from '../helpers/processes.js';
import { TEST_ENCRYPTION_KEY } from '../helpers/testApp.js';

// `npm start` as a process (docs/operations.md "Commands").
let database: TestDatabase;
let tenant: Tenant;

beforeAll(async () => {
  await ensureBuilt();
  database = await createTestDatabase();
  tenant = await makeTenant(database.handle.db);
}, 180_000);
afterAll(() => database?.drop());

const serverEnv = () => ({
  DATABASE_URL: database.url,
  ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  REDIS_URL: TEST_REDIS_URL,
});

/** A TCP pass-through to Postgres that the test can cut and restore: an outage on demand. */
class PostgresProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  constructor(readonly port: number) {}

  async open(): Promise<void> {
    const target = new URL(TEST_POSTGRES_URL);
    this.server = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      const end = () => (client.destroy(), upstream.destroy());
      client.on('close', end);
      upstream.on('close', end);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  /** Stops listening and drops every connection: Postgres is now unreachable. */
  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
    this.server = undefined;
  }
}

/** Polls `check` every 50 ms until it holds; fails after 10 s. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached within 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function getJson(url: string) {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('graceful shutdown', () => {
  it('on SIGTERM it stops accepting, finishes the in-flight request and exits 0 within 10 s', async () => {
    const server = await startServer({ ...serverEnv(), LOG_LEVEL: 'info' });
    const { port } = new URL(server.url);
    const body = JSON.stringify({ api_token: tenant.apiKey });
    const half = Math.floor(body.length / 2);

    // A request whose body is still arriving when the signal comes.
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    let response = '';
    socket.on('data', (d: Buffer) => (response += d.toString('utf8')));
    const closed = new Promise<void>((resolve) => socket.once('close', resolve));
    socket.write(
      'POST /api/v1/getMe HTTP/1.1\r\nHost: test\r\nAccept: application/json\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
        body.slice(0, half),
    );
    // the server has the request (its headers are logged) before the signal is sent
    await until(() => /"url":"\/api\/v1\/getMe".*"incoming request"/.test(server.stdout()));

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    // no longer accepting: new connections are refused while the request is still open
    await until(() =>
      fetch(`${server.url}/healthz`).then(
        () => false,
        () => true,
      ),
    );
    expect(server.child.exitCode).toBeNull();

    socket.write(body.slice(half));
    const result = await server.exited;
    await closed;
    expect(result).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
    expect(response).toMatch(/^HTTP\/1\.1 200 /);
    const json = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as {
      data: { id: number };
    };
    expect(json.data.id).toBe(tenant.accountId);
  }, 180_000);
});

describe('probes (docs/decisions.md: Postgres unreachable)', () => {
  let proxy: PostgresProxy;
  let server: ServerProcess;

  beforeAll(async () => {
    proxy = new PostgresProxy(await freePort());
    await proxy.open();
    const url = new URL(database.url);
    url.host = `127.0.0.1:${proxy.port}`;
    server = await startServer({ ...serverEnv(), DATABASE_URL: url.toString() });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await proxy?.cut();
  });

  it('/healthz and /readyz answer 200 while Postgres and Redis are reachable', async () => {
    expect(await getJson(`${server.url}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
    const ready = await getJson(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ postgres: true, redis: true });
  });

  it('/readyz answers 503 JSON and API calls 503 while Postgres is unreachable; both recover', async () => {
    await proxy.cut();
    const ready = await getJson(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ postgres: false });
    // the process is up: /healthz does not depend on Postgres
    expect((await getJson(`${server.url}/healthz`)).status).toBe(200);
    const res = await fetch(`${server.url}/api/v1/getMe`, {
      headers: { authorization: `Bearer ${tenant.apiKey}`, accept: 'application/json' },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await res.json()).toHaveProperty('error');

    await proxy.open();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await fetch(`${server.url}/readyz`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
    expect((await callHttp(server.url, 'getMe', {}, tenant.apiKey)).status).toBe(200);
  }, 180_000);

  it('/readyz answers 503 when Redis is configured but unreachable', async () => {
    const other = await startServer({
      ...serverEnv(),
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    });
    try {
      const ready = await getJson(`${other.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ postgres: true, redis: false });
    } finally {
      await other.stop();
    }
  }, 180_000);
});

describe('migrations under the advisory lock', () => {
  it('three `npm run migrate` processes started at once on an empty database all succeed, applying each migration once', async () => {
    const name = `lk_t_mig_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      await admin.query(`create database ${name}`);
      const env = {
        DATABASE_URL: databaseUrl(name),
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        LOG_LEVEL: 'warn',
      };
      const results = await Promise.all(
        [1, 2, 3].map(() => run(process.execPath, [path.join(ROOT, 'dist/migrateMain.js')], env)),
      );
      for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });

      const journal = JSON.parse(
        readFileSync(path.join(ROOT, 'migrations/meta/_journal.json'), 'utf8'),
      ) as { entries: unknown[] };
      const check = new pg.Client({ connectionString: databaseUrl(name) });
      await check.connect();
      try {
        const applied = await check.query(
          'select count(*)::int as n from drizzle.__drizzle_migrations',
        );
        expect(applied.rows[0].n).toBe(journal.entries.length);
        const tables = await check.query(
          "select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name in ('accounts', 'projects', 'bots')",
        );
        expect(tables.rows[0].n).toBe(3);
      } finally {
        await check.end();
      }
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 120_000);
});
