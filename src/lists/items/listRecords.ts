import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../infra/db/client.js';
import { databaseKey, listPartitionsNamed } from '../../infra/db/engine.js';
import { listItems } from '../../infra/db/schema/listItems.js';
import { BoundedMap } from '../../shared/boundedMap.js';
import { listKeyOf } from './listScope.js';

/**
 * Where a read of one list's records looks: `from` names list_items, or, where list_items is
 * partitioned by list (migration 0021), the list's own partition under list_items' name, so
 * the statement's columns read as before. A statement on the partition is planned as on one
 * table: the plan kept under its shape's name holds that table alone, where one kept on the
 * parent held all sixteen and set fifteen aside each time it ran, and a filter-first page can
 * be kept again (pageQueries.ts). `oneTable`: `from` is one table, not a partitioned parent.
 */
export interface ListRecords {
  from: SQL;
  oneTable: boolean;
}

/** list_items itself: the FROM item of a statement of no one list's partition. */
export const LIST_ITEMS: SQL = sql`${listItems}`;

const PARENT: ListRecords = { from: LIST_ITEMS, oneTable: true };

/** The FROM item of a read of the list's records (list_items where none is given). */
export function recordsFrom(target: { records?: ListRecords }): SQL {
  return target.records?.from ?? LIST_ITEMS;
}

/** Lists whose partition an instance remembers (a name each: a few MB at the bound). */
const MAX_LISTS = 50_000;

/**
 * Per database (its query dialect, as engine.ts keys its facts): list id → its partition's
 * name, the look-up itself while it runs, so simultaneous first reads of a list share it.
 */
const partitions = new WeakMap<object, BoundedMap<string, Promise<string | undefined>>>();

/**
 * The list's records as a read names them. The list's partition is asked of Postgres once per
 * list and remembered: it follows from the list's id alone (a hash of it, the partition key),
 * so it never changes while the table's partitions stay as they are. Not on Citus, where the
 * statement's table decides the worker it goes to, and the parent names it.
 */
export async function listRecords(db: Database, listId: string): Promise<ListRecords> {
  if (!(await listPartitionsNamed(db))) return PARENT;
  const key = databaseKey(db);
  let known = partitions.get(key);
  if (!known) {
    known = new BoundedMap(MAX_LISTS);
    partitions.set(key, known);
  }
  let lookup = known.get(listId);
  if (!lookup) {
    lookup = partitionOfList(db, listId);
    known.set(listId, lookup);
    // a failed look-up (the database down) is asked again next time, not remembered
    lookup.catch(() => known.delete(listId));
  }
  const name = await lookup;
  if (name === undefined) return { from: LIST_ITEMS, oneTable: false };
  return { from: sql`${sql.identifier(name)} as ${listItems}`, oneTable: true };
}

/** The partition of list_items that holds (or would hold) the list's records. */
async function partitionOfList(db: Database, listId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ name: string }>(
    db,
    sql`select c.relname as name
        from pg_inherits i
        join pg_class c on c.oid = i.inhrelid
        cross join lateral regexp_match(pg_get_expr(c.relpartbound, c.oid),
          'modulus (\\d+), remainder (\\d+)') as b
        where i.inhparent = 'public.list_items'::regclass
          and satisfies_hash_partition('public.list_items'::regclass, b[1]::int, b[2]::int,
            ${listKeyOf(listId)})`,
  );
  return row?.name;
}
