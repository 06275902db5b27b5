import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { DISTRIBUTED_TABLES, REFERENCE_TABLES } from '../../src/infra/db/distribution.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * The schema fits Citus (docs/scaling.md): every distributed table has its tenant column in
 * its primary key and in every unique index, and foreign keys between distributed tables
 * carry it too. Read from the catalog of a freshly migrated database.
 */
let database: TestDatabase;

interface KeyRow {
  table: string;
  name: string;
  kind: 'primary' | 'unique';
  columns: string[];
}

interface ForeignKeyRow {
  table: string;
  name: string;
  target: string;
  columns: string[];
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const keys = () =>
  queryRows<KeyRow>(
    database.handle.db,
    sql`select c.relname as "table", i.relname as name,
          case when x.indisprimary then 'primary' else 'unique' end as kind,
          array(select a.attname::text from unnest(x.indkey) with ordinality k(n, o)
                join pg_attribute a on a.attrelid = c.oid and a.attnum = k.n
                order by k.o) as columns
        from pg_index x
        join pg_class i on i.oid = x.indexrelid
        join pg_class c on c.oid = x.indrelid
        where c.relnamespace = 'public'::regnamespace and (x.indisunique or x.indisprimary)
        order by 1, 2`,
  );

const foreignKeys = () =>
  queryRows<ForeignKeyRow>(
    database.handle.db,
    sql`select conrelid::regclass::text as "table", conname as name,
          confrelid::regclass::text as target,
          array(select a.attname::text from unnest(conkey) k(n)
                join pg_attribute a on a.attrelid = conrelid and a.attnum = k.n) as columns
        from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`,
  );

/** Keys of distributed tables that lack the tenant column. */
function keysWithoutTenant(rows: KeyRow[]): string[] {
  const tenant: Record<string, string> = DISTRIBUTED_TABLES;
  return rows
    .filter((k) => tenant[k.table] !== undefined && !k.columns.includes(tenant[k.table]!))
    .map((k) => `${k.table}.${k.name} (${k.columns.join(', ')})`);
}

describe('keys ready for Citus', () => {
  it('places every table: distributed by its tenant column, or reference', async () => {
    const tables = await queryRows<{ name: string }>(
      database.handle.db,
      // list_items' partitions (migration 0021) are placed with it
      sql`select relname as name from pg_class
          where relnamespace = 'public'::regnamespace and relkind in ('r', 'p')
            and not relispartition order by 1`,
    );
    const placed = [...Object.keys(DISTRIBUTED_TABLES), ...REFERENCE_TABLES].sort();
    expect(tables.map((t) => t.name)).toEqual(placed);
  });

  it('has the tenant column in every primary key and unique index of a distributed table', async () => {
    const rows = await keys();
    for (const table of Object.keys(DISTRIBUTED_TABLES)) {
      expect(
        rows.some((k) => k.table === table && k.kind === 'primary'),
        `${table} has a primary key`,
      ).toBe(true);
    }
    expect(keysWithoutTenant(rows)).toEqual([]);
  });

  it('has the tenant column in every foreign key between distributed tables', async () => {
    const tenant: Record<string, string> = DISTRIBUTED_TABLES;
    const between = (await foreignKeys()).filter(
      (f) => tenant[f.table] !== undefined && tenant[f.target] !== undefined,
    );
    expect(between.map((f) => f.name).sort()).toEqual([
      'contact_variables_contact_fk',
      'contacts_bot_fk',
      'list_field_erasures_list_fk',
    ]);
    for (const f of between) expect(f.columns, f.name).toContain(tenant[f.table]);
  });

  it('would catch a key without the tenant column', () => {
    const bad: KeyRow = { table: 'list_items', name: 'x', kind: 'unique', columns: ['id'] };
    const good: KeyRow = { ...bad, columns: ['owner_id', 'id'] };
    const reference: KeyRow = { ...bad, table: 'accounts' };
    expect(keysWithoutTenant([bad, good, reference])).toEqual(['list_items.x (id)']);
  });
});
