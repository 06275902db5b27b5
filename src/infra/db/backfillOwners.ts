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
 * A batch of `table` (primary key `id` of type `key`) after `last`: owner_id from the row of
 * `parent` that `link` points to.
 */
const alongPrimaryKey =
  (table: string, key: 'text' | 'bigint', parent: string, link: string) =>
  (last: string | null, size: number) => {
    const t = sql.identifier(table);
    return sql`
      with batch as (
        select id from ${t} where ${last === null ? sql`true` : sql`id > ${last}::${sql.raw(key)}`}
        order by id limit ${size}),
      filled as (
        update ${t} target set owner_id = p.owner_id
        from batch b, ${sql.identifier(parent)} p
        where target.id = b.id and target.owner_id is null and p.id = target.${sql.identifier(link)}
        returning 1)
      select (select max(id)::text from batch) as last, (select count(*)::int from filled) as filled`;
  };

/**
 * The tables that gained `owner_id` (migration 0011), each walked once along its primary key
 * in the order given. New rows are written with their owner; this fills the rows from before.
 */
const TARGETS: Target[] = [
  {
    table: 'list_items',
    batch: alongPrimaryKey('list_items', 'text', 'list_schemas', 'schema_id'),
  },
  {
    table: 'contact_variables',
    batch: alongPrimaryKey('contact_variables', 'bigint', 'contacts', 'contact_id'),
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
