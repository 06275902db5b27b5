import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from './client.js';

/** Rows per statement: each batch is one short autocommitted UPDATE, locking only its rows. */
const BATCH = 5000;

interface Target {
  table: string;
  /**
   * One batch after `last` (a key of the table's primary key; null: from the start): fills
   * `owner_id` where it is null and answers the batch's last key (null past the end) and
   * how many rows it filled.
   */
  batch(last: string | null, size: number): SQL;
}

/**
 * The tables that gained `owner_id` (migration 0011), each walked once along its primary key
 * in the order given. New rows are written with their owner; this fills the rows from before.
 */
const TARGETS: Target[] = [
  {
    table: 'list_items',
    batch: (last, size) => sql`
      with batch as (
        select id from list_items where ${last === null ? sql`true` : sql`id > ${last}`}
        order by id limit ${size}),
      filled as (
        update list_items i set owner_id = s.owner_id
        from batch b, list_schemas s
        where i.id = b.id and i.owner_id is null and s.id = i.schema_id
        returning 1)
      select (select max(id) from batch) as last, (select count(*)::int from filled) as filled`,
  },
  {
    table: 'contact_variables',
    batch: (last, size) => sql`
      with batch as (
        select id from contact_variables where ${last === null ? sql`true` : sql`id > ${last}::bigint`}
        order by id limit ${size}),
      filled as (
        update contact_variables v set owner_id = c.owner_id
        from batch b, contacts c
        where v.id = b.id and v.owner_id is null and c.id = v.contact_id
        returning 1)
      select (select max(id)::text from batch) as last, (select count(*)::int from filled) as filled`,
  },
  {
    // a handful of rows at any time (erasures in progress): one statement
    table: 'list_field_erasures',
    batch: () => sql`
      with filled as (
        update list_field_erasures e set owner_id = s.owner_id
        from list_schemas s where e.owner_id is null and s.id = e.schema_id
        returning 1)
      select null::text as last, (select count(*)::int from filled) as filled`,
  },
];

/**
 * Fills `owner_id` of the rows written before the column existed, a batch at a time, and
 * marks each table done once a walk reached its end (owner_backfills): later passes skip
 * it. Stops between batches when `signal` aborts; the next pass starts the table again
 * (cheap: filled rows are passed over). Answers how many rows it filled.
 */
export async function backfillOwners(
  db: Database,
  { signal, batchSize = BATCH }: { signal?: AbortSignal; batchSize?: number } = {},
): Promise<number> {
  const done = new Set(
    (await queryRows<{ table_name: string }>(db, sql`select table_name from owner_backfills`)).map(
      (r) => r.table_name,
    ),
  );
  let filled = 0;
  for (const target of TARGETS) {
    if (done.has(target.table)) continue;
    let last: string | null = null;
    for (;;) {
      if (signal?.aborted) return filled;
      const rows: { last: string | null; filled: number }[] = await queryRows(
        db,
        target.batch(last, batchSize),
      );
      const row = rows[0];
      filled += row?.filled ?? 0;
      last = row?.last ?? null;
      if (last === null) break;
    }
    await db.execute(
      sql`insert into owner_backfills (table_name) values (${target.table}) on conflict do nothing`,
    );
  }
  return filled;
}
