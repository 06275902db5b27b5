import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { connectPostgres, queryRows } from '../../src/infra/db/client.js';
import { migratePostgres, migrationsFolderUpTo } from '../../src/infra/db/migrate.js';
import { listRecords } from '../../src/lists/items/listRecords.js';
import { databaseUrl, TEST_POSTGRES_URL } from '../helpers/env.js';
import { withAdmin } from '../helpers/templateDatabase.js';

/**
 * Migration 0021 (list_items partitioned by list) on a database an older version left: the
 * records written while `list_key` was generated are all there afterwards, each in its list's
 * one partition, with every index and setting the flat table had; and from then on an insert
 * must name the list's key, and name it right.
 */
const name = `lk_t_parts_${randomBytes(5).toString('hex')}`;
const url = databaseUrl(name);
let client: pg.Client;
const LISTS = ['list-a', 'list-b', 'list-c', 'list-d', 'list-e'];
const PER_LIST = 400;

/** The index definitions of a table, its own name taken out of them. */
async function indexesOf(table: string): Promise<string[]> {
  const { rows } = await client.query<{ d: string }>(
    `select replace(replace(indexdef, indexname, ''), ' ONLY ', ' ') as d from pg_indexes
     where tablename = $1 order by 1`,
    [table],
  );
  return rows.map((r) => r.d.replace(/public\.\w+/, 'T'));
}

let flatIndexes: string[];

beforeAll(async () => {
  await withAdmin(TEST_POSTGRES_URL, (c) => c.query(`create database ${name}`));
  await migratePostgres(url, migrationsFolderUpTo(20));
  client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`insert into accounts (id, email, name, plan, api_key_hash)
                      values (1, 'o@example.test', 'A', 'pro', 'h')`);
  await client.query(`insert into projects (uuid, owner_id, name)
                      values ('00000000-0000-4000-8000-000000000001', 1, 'P')`);
  for (const list of LISTS) {
    await client.query(
      `insert into list_schemas (id, project_uuid, owner_id, name, fields)
       values ($1, '00000000-0000-4000-8000-000000000001', 1, $1, '[]')`,
      [list],
    );
    // list_key generated, as before 0021
    await client.query(
      `insert into list_items (id, schema_id, owner_id, data, t1, n1)
       select $1 || '-' || g, $1, 1, jsonb_build_object('k', g), 'v' || (g % 7), g
       from generate_series(1, $2::int) g`,
      [list, PER_LIST],
    );
  }
  flatIndexes = await indexesOf('list_items');
  await migratePostgres(url);
}, 120_000);

afterAll(async () => {
  await client?.end();
  await withAdmin(TEST_POSTGRES_URL, (c) =>
    c.query(`drop database if exists ${name} with (force)`),
  );
});

describe('migration 0021 on records written before it', () => {
  it('makes list_items a table of 16 hash partitions by list_key', async () => {
    const { rows } = await client.query<{ kind: string; parts: number; key: string }>(
      `select c.relkind as kind, pg_get_partkeydef(c.oid) as key,
              (select count(*)::int from pg_inherits where inhparent = c.oid) as parts
       from pg_class c where c.oid = 'list_items'::regclass`,
    );
    expect(rows[0]).toEqual({ kind: 'p', key: 'HASH (list_key)', parts: 16 });
  });

  it("keeps every record, each in its list's one partition, its key the hash of its list", async () => {
    const { rows } = await client.query<{ schema_id: string; n: number; parts: number }>(
      `select schema_id, count(*)::int as n, count(distinct tableoid)::int as parts
       from list_items where list_key = hashtextextended(schema_id, 0)
       group by 1 order by 1`,
    );
    expect(rows).toEqual(LISTS.map((list) => ({ schema_id: list, n: PER_LIST, parts: 1 })));
    const { rows: placed } = await client.query<{ parts: number }>(
      `select count(distinct tableoid)::int as parts from list_items`,
    );
    // five lists over sixteen partitions: not all in one
    expect(placed[0]!.parts).toBeGreaterThan(1);
  });

  it('has the flat table’s indexes on the table and on each partition, with its settings', async () => {
    const parent = await indexesOf('list_items');
    // the primary key gains list_key; the other indexes are as they were
    const withoutKey = (defs: string[]) => defs.filter((d) => !d.includes('UNIQUE'));
    expect(withoutKey(parent)).toEqual(withoutKey(flatIndexes));
    expect(parent.filter((d) => d.includes('UNIQUE'))).toEqual([
      'CREATE UNIQUE INDEX  ON T USING btree (id, owner_id, list_key)',
    ]);
    const partition = await indexesOf('list_items_p7');
    expect(partition).toEqual(parent);
    const { rows } = await client.query<{ names: string[]; options: string[] }>(
      `select array(select indexname::text from pg_indexes where tablename = 'list_items_p7'
                    order by 1) as names,
              (select reloptions from pg_class where relname = 'list_items_p7') as options`,
    );
    // named after the parent's, so plans read as they did
    expect(rows[0]!.names).toContain('list_items_t1_idx_p7');
    expect(rows[0]!.names).toContain('list_items_pkey_p7');
    expect(rows[0]!.options).toContain('autovacuum_vacuum_scale_factor=0.02');
  });

  it('refuses an insert that leaves out the list key or names another list’s', async () => {
    await expect(
      client.query(`insert into list_items (id, schema_id, owner_id, data)
                    values ('x1', 'list-a', 1, '{}')`),
    ).rejects.toThrow(/list_key/);
    await expect(
      client.query(`insert into list_items (id, schema_id, list_key, owner_id, data)
                    values ('x2', 'list-a', hashtextextended('list-b', 0), 1, '{}')`),
    ).rejects.toThrow(/list_items_list_key_check/);
    await client.query(`insert into list_items (id, schema_id, list_key, owner_id, data)
                        values ('x3', 'list-a', hashtextextended('list-a', 0), 1, '{}')`);
    const { rows } = await client.query(`select 1 from list_items where id = 'x3'`);
    expect(rows).toHaveLength(1);
  });
});

describe("the service's reads on the partitioned table (listRecords.ts)", () => {
  it("name each list's own partition, which holds all of its records and takes its new ones", async () => {
    const handle = connectPostgres(url, { error: () => undefined });
    try {
      const countIn = async (list: string) => {
        const records = await listRecords(handle.db, list);
        expect(records.oneTable).toBe(true);
        const [row] = await queryRows<{ n: number }>(
          handle.db,
          sql`select count(*)::int as n from ${records.from} where schema_id = ${list}`,
        );
        return row!.n;
      };
      // any other partition holds none of the list's records
      for (const list of LISTS) {
        const { rows } = await client.query<{ n: number }>(
          'select count(*)::int as n from list_items where schema_id = $1',
          [list],
        );
        expect(rows[0]!.n).toBeGreaterThanOrEqual(PER_LIST);
        expect(await countIn(list)).toBe(rows[0]!.n);
      }
      // a list with no records yet: named before its first record, the partition it goes to
      await client.query(`insert into list_schemas (id, project_uuid, owner_id, name, fields)
        values ('list-z', '00000000-0000-4000-8000-000000000001', 1, 'list-z', '[]')`);
      expect(await countIn('list-z')).toBe(0);
      await client.query(`insert into list_items (id, schema_id, list_key, owner_id, data)
                          values ('z1', 'list-z', hashtextextended('list-z', 0), 1, '{}')`);
      expect(await countIn('list-z')).toBe(1);
    } finally {
      await handle.close();
    }
  });
});
