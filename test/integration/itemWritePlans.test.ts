import { sql, type SQL } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/infra/db/client.js';
import { findItemRows, insertItemRows, type NewItemRow } from '../../src/lists/items/batchRows.js';
import { updateItemRow } from '../../src/lists/items/itemRows.js';
import { makeList, slotted, type TestList } from '../helpers/lists.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * The writes of existing records find them by the primary key even while the planner knows
 * nothing of the list: right after a large import, before the table's statistics are taken
 * again, Postgres otherwise walked the whole list's (owner, list, …) index for one record.
 * This file's database has the list's rows counted (VACUUM) but no column statistics.
 */
let list: TestList;
let ids: string[];

const t = testAppForFile({ tenants: ['owner'] });
beforeAll(async () => {
  list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
  ids = [];
  for (let batch = 0; batch < 10; batch++) {
    const rows: NewItemRow[] = Array.from({ length: 1000 }, (_, i) => ({
      id: uuidv7(),
      changes: slotted({ a: `v${i % 10}` }, { t1: `v${i % 10}` }),
    }));
    await insertItemRows(t.db, t.owner.accountId, list.id, list.fields, rows, new Date());
    ids.push(...rows.map((r) => r.id));
  }
  await t.db.execute(sql`vacuum list_items`);
  // the table's and each partition's (migration 0021)
  await t.db.execute(
    sql`delete from pg_statistic where starelid = 'list_items'::regclass
          or starelid in (select inhrelid from pg_inherits where inhparent = 'list_items'::regclass)`,
  );
}, 60_000);

/** A stand-in database that EXPLAINs each statement on the real one instead of running it. */
function explaining(db: Database) {
  const plans: unknown[] = [];
  const spy = {
    // the database's engine, already known (engine.ts), is the spy's: its look-up is no plan
    dialect: (db as unknown as { dialect: object }).dialect,
    async execute(query: SQL) {
      const [row] = await queryRows<{ 'QUERY PLAN': unknown }>(
        db,
        sql`explain (format json) ${query}`,
      );
      plans.push(row!['QUERY PLAN']);
      return { rows: [] };
    },
  };
  return { db: spy as unknown as Database, plans };
}

/**
 * The list_items indexes a plan reads (by the partitioned index's name), the partitions it
 * reads whole, and how many partitions it reads.
 */
function itemAccess(plan: unknown) {
  const indexes = new Set<string>();
  const partitions = new Set<string>();
  const seqScans = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    const n = node as Record<string, unknown>;
    const index = n['Index Name'];
    const relation = n['Relation Name'];
    const onItems = typeof relation === 'string' && relation.startsWith('list_items');
    if (onItems && /_p\d+$/.test(relation)) partitions.add(relation);
    if (typeof index === 'string' && onItems) indexes.add(index.replace(/_p\d+$/, ''));
    if (n['Node Type'] === 'Seq Scan' && onItems) seqScans.add(relation);
    Object.values(n).forEach(walk);
  };
  walk(plan);
  return { indexes: [...indexes], seqScans: [...seqScans], partitions: partitions.size };
}

describe('plans of record writes while the list has no statistics', () => {
  it('updateListItem reaches its record by the primary key', async () => {
    const spy = explaining(t.db);
    await updateItemRow(
      spy.db,
      t.owner.accountId,
      list.id,
      ids[42]!,
      list.fields,
      slotted({ a: 'x' }, { t1: 'x' }),
      new Date(),
    );
    expect(spy.plans).toHaveLength(1);
    // the list's key, the key's last column, names the record's one partition
    expect(itemAccess(spy.plans[0])).toEqual({
      indexes: ['list_items_pkey'],
      seqScans: [],
      partitions: 1,
    });
  });

  it('a batch looks its records up by one primary-key probe each', async () => {
    const spy = explaining(t.db);
    await findItemRows(spy.db, t.owner.accountId, ids.slice(0, 1000));
    expect(spy.plans).toHaveLength(1);
    // records of any of the owner's lists: each partition's key probed, the list's among
    // them (an empty partition may be read whole: it costs nothing)
    const access = itemAccess(spy.plans[0]);
    expect(access.indexes).toEqual(['list_items_pkey']);
    const [{ partition } = { partition: '' }] = await queryRows<{ partition: string }>(
      t.db,
      sql`select tableoid::regclass::text as partition from list_items limit 1`,
    );
    expect(partition).toMatch(/^list_items_p\d+$/);
    expect(access.seqScans).not.toContain(partition);
  });
});
