import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../../src/infra/db/client.js';
import { call } from '../helpers/call.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { makeTenant } from '../helpers/factories.js';
import { startPgbouncer, type Pgbouncer } from '../helpers/pgbouncer.js';
import { callHttp, ensureBuilt, startServer } from '../helpers/processes.js';
import { startTestApp, TEST_ENCRYPTION_KEY } from '../helpers/testApp.js';
import { createListViaApi } from '../helpers/viaApi.js';

/**
 * Behind PgBouncer's transaction pooling (PG_PREPARED_STATEMENTS=off): one server connection
 * serves every client connection in turn, so a named statement or any session state would
 * leak from one to the next. The first test shows the failure the setting prevents.
 */
let pgbouncer: Pgbouncer;
let database: TestDatabase;

beforeAll(async () => {
  // one server connection: every transaction of every client runs on it, one after the other
  pgbouncer = await startPgbouncer({ poolSize: 1 });
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
  await pgbouncer.stop();
});

const PROBE: pg.QueryConfig = { name: 'lk_named_probe', text: 'select $1::int + 1 as n' };

/** The same named statement from two client connections, one after the other. */
async function namedTwice(a: pg.ClientBase, b: pg.ClientBase): Promise<unknown[]> {
  const first = await a.query({ ...PROBE, values: [1] });
  const second = await b.query({ ...PROBE, values: [2] }).catch((err: Error) => err);
  return [first.rows[0], second instanceof Error ? second.message : second.rows[0]];
}

describe('PgBouncer in transaction pooling', () => {
  it('breaks named statements and startup parameters, and PG_PREPARED_STATEMENTS=off sends neither', async () => {
    const url = pgbouncer.url(database.name);
    const [a, b] = [new pg.Client(url), new pg.Client(url)];
    await a.connect();
    await b.connect();
    try {
      // b's Parse reaches the server connection a prepared it on
      expect((await namedTwice(a, b))[1]).toMatch(
        /prepared statement "lk_named_probe" already exists/,
      );
    } finally {
      await a.end();
      await b.end();
    }
    const named = connectPostgres(url, pino({ level: 'silent' }), { max: 2 });
    await expect(named.pool!.connect()).rejects.toThrow(
      /unsupported startup parameter: statement_timeout/,
    );
    await named.close();

    const unnamed = connectPostgres(url, pino({ level: 'silent' }), {
      max: 2,
      preparedStatements: false,
    });
    const [c, d] = [await unnamed.pool!.connect(), await unnamed.pool!.connect()];
    try {
      expect(await namedTwice(c, d)).toEqual([{ n: 2 }, { n: 3 }]);
    } finally {
      c.release();
      d.release();
      await unnamed.close();
    }
  });

  it('serves keyed requests, list and record writes, batches and the feed through it', async () => {
    const handle = connectPostgres(pgbouncer.url(database.name), pino({ level: 'silent' }), {
      preparedStatements: false,
    });
    const t = await startTestApp({
      database: { ...database, handle },
      env: { RATE_LIMIT_PER_MINUTE: '1000000' },
    });
    try {
      const me = await makeTenant(t.db);
      const list = await createListViaApi(t.app, me, [
        { slug: 'n', name: 'N', type: 'number', is_required: true },
      ]);
      const key = { key: me.apiKey };
      // 10 pool clients share the one server connection, interleaving their transactions
      const added = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          call(t.app, 'addListItem', { schema_id: list.id, data: { n: i } }, key),
        ),
      );
      expect(added.map((r) => r.status)).toEqual(added.map(() => 201));
      const batch = await call(
        t.app,
        'addListItems',
        { schema_id: list.id, items: [{ n: 100 }, { n: 101 }] },
        key,
      );
      expect(batch.status).toBe(201);
      const updated = await call(
        t.app,
        'updateListItem',
        { item_id: added[0]!.body.data.id, data: { n: -1 } },
        key,
      );
      expect(updated.status).toBe(200);
      const contact = await call(
        t.app,
        'createOrUpdateContact',
        { bot_id: me.botId, messenger: 'telegram', telegram_id: 5, name: 'Ada' },
        key,
      );
      expect(contact.status).toBe(201);
      const page = await call(
        t.app,
        'getListItems',
        { schema_id: list.id, filters: { n: '>=,100' }, order_by: 'n,asc' },
        key,
      );
      expect(page.body.data.map((r: { n: number }) => r.n)).toEqual([100, 101]);
      expect(page.body.meta.total).toBe(2);
      const feed = await call(t.app, 'getChanges', { limit: 1000 }, key);
      const types = feed.body.data.map((e: { type: string }) => e.type);
      expect(types.filter((x: string) => x === 'list_item.created')).toHaveLength(62);
      expect(types).toContain('list_item.updated');
      expect(types).toContain('contact.created');
      expect((await call(t.app, 'getContacts', { bot_id: me.botId }, key)).body.meta.total).toBe(1);
    } finally {
      await t.close();
      await handle.close();
    }
  });

  it('the server runs behind it as documented: PG_PREPARED_STATEMENTS=off, migrations direct', async () => {
    await ensureBuilt();
    const fresh = await createTestDatabase();
    const server = await startServer({
      DATABASE_URL: pgbouncer.url(fresh.name),
      DATABASE_MIGRATION_URL: fresh.url,
      PG_PREPARED_STATEMENTS: 'off',
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    });
    try {
      const me = await makeTenant(fresh.handle.db);
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => callHttp(server.url, 'getMe', {}, me.apiKey)),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      await server.stop();
      await fresh.drop();
    }
  });
});
