import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  migratePostgres,
  migrationsFolder,
  migrationsFolderUpTo,
} from '../../src/infra/db/migrate.js';
import { prebuildIndexes } from '../../src/infra/db/onlineIndexes.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { databaseUrl, TEST_POSTGRES_URL } from '../helpers/env.js';

/**
 * Migration 0012 (owner_id in every key) on a database an older version left: rows without
 * an owner, the old keys. `npm run migrate` fills and builds online first (ownerKeys.ts); the
 * embedded path runs the migration alone. Either way the result is the schema a fresh
 * database gets, with every row's owner right.
 */
const created: string[] = [];
let fresh: TestDatabase;
const upTo0011 = migrationsFolderUpTo(11);
const upTo0012 = migrationsFolderUpTo(12);
const upTo0016 = migrationsFolderUpTo(16);

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Every statement prebuildIndexes sends to the database at `url`, in order. */
async function prebuiltStatements(url: string): Promise<string[]> {
  const sent: string[] = [];
  await withClient(url, (c) =>
    prebuildIndexes((text, params) => {
      sent.push(text);
      return c.query(text, params);
    }, migrationsFolder),
  );
  return sent;
}

/** A database at migration 0011 holding two accounts' data, some rows without an owner. */
async function oldDatabase(): Promise<string> {
  const name = `lk_t_old_${randomBytes(5).toString('hex')}`;
  await withClient(TEST_POSTGRES_URL, (c) => c.query(`create database ${name}`));
  created.push(name);
  const url = databaseUrl(name);
  await migratePostgres(url, upTo0011);
  await withClient(url, async (c) => {
    for (const owner of [1, 2]) {
      await c.query(
        `insert into accounts (id, email, name, plan, api_key_hash)
         values ($1, $2, 'A', 'pro', $3)`,
        [owner, `o${owner}@example.test`, `hash${owner}`],
      );
      const project = `0000000${owner}-0000-4000-8000-000000000000`;
      await c.query(`insert into projects (uuid, owner_id, name) values ($1, $2, 'P')`, [
        project,
        owner,
      ]);
      await c.query(
        `insert into bots (id, project_uuid, owner_id, name) values ($1, $2, $1, 'B')`,
        [owner, project],
      );
      const list = `list-${owner}`;
      await c.query(
        `insert into list_schemas (id, project_uuid, owner_id, name, fields)
         values ($1, $2, $3, 'L', '[]')`,
        [list, project, owner],
      );
      // records as 0010 wrote them (no owner) and as 0011 does (with one)
      await c.query(
        `insert into list_items (id, schema_id, owner_id, data, t1, n1)
         select $1 || '-' || g, $1, case when g % 2 = 0 then $2::bigint end,
                jsonb_build_object('t', 'v' || g), 'v' || (g % 5), g
         from generate_series(1, 300) g`,
        [list, owner],
      );
      await c.query(
        `insert into contacts (id, bot_id, owner_id, messenger, telegram_id, name)
         values ($1, $1, $1, 'telegram', $1, 'C')`,
        [owner],
      );
      await c.query(
        `insert into contact_variables (contact_id, name, value) values ($1, 'a', '1'), ($1, 'b', '2')`,
        [owner],
      );
      await c.query(`insert into list_field_erasures (schema_id, slug) values ($1, 'gone')`, [
        list,
      ]);
    }
  });
  return url;
}

/** Indexes and constraints, as text, for comparing two schemas. */
async function schemaOf(url: string): Promise<string[]> {
  return withClient(url, async (c) => {
    const indexes = await c.query<{ d: string }>(
      `select indexdef as d from pg_indexes where schemaname = 'public'`,
    );
    const constraints = await c.query<{ d: string }>(
      `select conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
              || case when convalidated then '' else ' NOT VALIDATED' end as d
       from pg_constraint where connamespace = 'public'::regnamespace`,
    );
    const invalid = await c.query<{ d: string }>(
      `select 'invalid index ' || indexrelid::regclass as d from pg_index where not indisvalid`,
    );
    const nullable = await c.query<{ d: string }>(
      `select 'nullable ' || table_name || '.owner_id' as d from information_schema.columns
       where table_schema = 'public' and column_name = 'owner_id' and is_nullable = 'YES'`,
    );
    return [...indexes.rows, ...constraints.rows, ...invalid.rows, ...nullable.rows]
      .map((r) => r.d)
      .sort();
  });
}

/** Rows whose owner is not that of their list or contact (none may be). */
async function wrongOwners(url: string) {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ table: string; n: number }>(
      `select 'list_items' as table, count(*)::int as n from list_items i
         left join list_schemas s on s.id = i.schema_id where i.owner_id is distinct from s.owner_id
       union all
       select 'contact_variables', count(*)::int from contact_variables v
         left join contacts c on c.id = v.contact_id where v.owner_id is distinct from c.owner_id
       union all
       select 'list_field_erasures', count(*)::int from list_field_erasures e
         left join list_schemas s on s.id = e.schema_id where e.owner_id is distinct from s.owner_id
       union all
       select 'list_layouts', count(*)::int from list_layouts l
         left join list_schemas s on s.id = l.schema_id where l.owner_id is distinct from s.owner_id`,
    );
    return rows;
  });
}

const rightOwners = [
  { table: 'list_items', n: 0 },
  { table: 'contact_variables', n: 0 },
  { table: 'list_field_erasures', n: 0 },
  { table: 'list_layouts', n: 0 },
];

beforeAll(async () => {
  fresh = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await fresh.drop();
  await withClient(TEST_POSTGRES_URL, async (c) => {
    for (const name of created) await c.query(`drop database if exists ${name} with (force)`);
  });
});

describe('migration 0012 on an older database', () => {
  it('npm run migrate: fills owners, builds the keys online, and ends with the fresh schema', async () => {
    const url = await oldDatabase();
    const counts = await withClient(url, (c) =>
      c.query<{ n: number }>(`select count(*)::int as n from list_items where owner_id is null`),
    );
    expect(counts.rows[0]!.n).toBe(300);

    await migratePostgres(url);
    expect(await wrongOwners(url)).toEqual(rightOwners);
    expect(await schemaOf(url)).toEqual(await schemaOf(fresh.url));
    // the planner's statistics were read again: owner_id is no longer "always null" to it
    const stats = await withClient(url, (c) =>
      c.query<{ null_frac: number }>(
        `select null_frac from pg_stats where tablename = 'list_items' and attname = 'owner_id'`,
      ),
    );
    expect(stats.rows).toEqual([{ null_frac: 0 }]);
  }, 60_000);

  it('takes over from an online build cut short (an invalid index is built again)', async () => {
    const url = await oldDatabase();
    await withClient(url, async (c) => {
      // what a crash during CREATE INDEX CONCURRENTLY leaves: an index marked invalid
      await c.query(
        `create index list_items_created_idx_owner on list_items (owner_id, schema_id, created_at, id)`,
      );
      await c.query(
        `update pg_index set indisvalid = false
         where indexrelid = 'list_items_created_idx_owner'::regclass`,
      );
      await c.query(
        `alter table list_items add constraint list_items_owner_id_not_null
           check (owner_id is not null) not valid`,
      );
    });
    await migratePostgres(url);
    expect(await wrongOwners(url)).toEqual(rightOwners);
    expect(await schemaOf(url)).toEqual(await schemaOf(fresh.url));
  }, 60_000);

  it('the migration alone (the embedded path) reaches the same schema', async () => {
    const url = await oldDatabase();
    await withClient(url, (c) => migrate(drizzle({ client: c }), { migrationsFolder }));
    expect(await wrongOwners(url)).toEqual(rightOwners);
    const schema = await schemaOf(url);
    // foreign keys stay NOT VALID until the migrator validates them after the transaction
    expect(schema.filter((d) => d.endsWith('NOT VALIDATED'))).toHaveLength(3);
    await migratePostgres(url);
    expect(await schemaOf(url)).toEqual(await schemaOf(fresh.url));
  }, 60_000);
});

describe('migrations 0013 and 0014 (count and covering indexes) on a database with records', () => {
  it('builds its indexes CONCURRENTLY before it runs, an invalid leftover again', async () => {
    const url = await oldDatabase();
    await migratePostgres(url, upTo0012);
    await withClient(url, async (c) => {
      // a build of one of them cut short
      await c.query(`create index list_items_n1_count_idx on list_items (owner_id)`);
      await c.query(
        `update pg_index set indisvalid = false where indexrelid = 'list_items_n1_count_idx'::regclass`,
      );
    });
    const sent = await prebuiltStatements(url);
    const builds = sent.filter((q) => /^CREATE INDEX/.test(q));
    const slots = ['n1', 'n2', 'n3', 'd1', 'd2'];
    expect(builds.map((q) => /"(\w+)"/.exec(q)![1])).toEqual([
      ...slots.map((slot) => `list_items_${slot}_count_idx`),
      ...[...slots, 'created'].map((slot) => `list_items_${slot}_idx_next`),
    ]);
    expect(builds.every((q) => q.startsWith('CREATE INDEX CONCURRENTLY IF NOT EXISTS'))).toBe(true);
    expect(sent).toContain('drop index concurrently "list_items_n1_count_idx"');
    await migratePostgres(url);
    expect(await schemaOf(url)).toEqual(await schemaOf(fresh.url));
    // once 0014 is recorded, a start asks two questions and builds nothing
    const again = await prebuiltStatements(url);
    expect(again).toHaveLength(2);
    expect(again.some((q) => /index/i.test(q))).toBe(false);
  }, 60_000);
});

describe('migration 0017 (t1 in the range indexes) on a database with records', () => {
  const prebuilt = async (url: string) =>
    (await prebuiltStatements(url)).filter((q) => /^CREATE INDEX/.test(q));

  it('waits behind a pending 0016, whose list_key its indexes name, then builds them CONCURRENTLY', async () => {
    const url = await oldDatabase();
    await migratePostgres(url, upTo0012);
    // 0013 and 0014 come before 0015 (not index-only): built; 0017 comes after it: not yet
    const first = await prebuilt(url);
    expect(first.length).toBeGreaterThan(0);
    expect(first.some((q) => q.includes('list_key'))).toBe(false);
    await migratePostgres(url, upTo0016);
    const second = await prebuilt(url);
    expect(second.map((q) => /"(\w+)"/.exec(q)![1])).toEqual(
      ['n1', 'n2', 'n3', 'd1', 'd2'].map((slot) => `list_items_${slot}_idx_next`),
    );
    expect(second.every((q) => /^CREATE INDEX CONCURRENTLY .*INCLUDE \("t1"/.test(q))).toBe(true);
    await migratePostgres(url);
    expect(await schemaOf(url)).toEqual(await schemaOf(fresh.url));
  }, 60_000);
});
