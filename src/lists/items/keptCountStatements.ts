import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { queryRows, type Database } from '../../infra/db/client.js';
import { listItems } from '../../infra/db/schema/listItems.js';
import { listSchemas } from '../../infra/db/schema/listSchemas.js';
import { advanceable, CREATED, MAX_CHANGES_TO_ADVANCE, unseenChanges } from './listTotals.js';
import { listKeyOf, listScope } from './listScope.js';

/**
 * The statements that write a list slot's kept counts, whatever their kind: the one that
 * counts the list, and the one that brings the counts forward over the writes since.
 */

/** Which list slot's counts, in which table. */
export interface KeptCountsOf {
  table: PgTable;
  ownerId: number;
  listId: string;
  slot: number;
  /** the table's two array columns */
  arrays: readonly [string, string];
}

/**
 * Counts the list's slot, in one statement with its snapshot and the list's version and layout:
 * `counted` is a subquery of one row holding the two arrays (as `first` and `second`), which may
 * read the list's row as `l`.
 */
export async function countKeptCounts(db: Database, c: KeptCountsOf & { counted: SQL }) {
  const [first, second] = c.arrays.map((name) => sql.identifier(name));
  await queryRows(
    db,
    sql`insert into ${c.table} as c
          (owner_id, list_key, slot, ${first}, ${second}, snapshot, version, layout, counted_at)
        select l.owner_id, ${listKeyOf(sql`l.id`)}, ${c.slot}, coalesce(g.first, '{}'),
          coalesce(g.second, '{}'), pg_current_snapshot()::text, l.version, l.layout, now()
        from ${listSchemas} l cross join lateral (${c.counted}) g
        where l.owner_id = ${c.ownerId} and l.id = ${c.listId} and l.deleted_at is null
        on conflict (owner_id, list_key, slot) do update set ${first} = excluded.${first},
          ${second} = excluded.${second}, snapshot = excluded.snapshot, version = excluded.version,
          layout = excluded.layout, counted_at = excluded.counted_at`,
  );
}

/**
 * The most writes a list's kept counts are brought forward over, in the background: past
 * them the list is counted again. Each write costs a primary-key probe or a row of the feed
 * read, a count every record of the slot; a read's own advance stops at
 * MAX_CHANGES_TO_ADVANCE, which a busy list passes between two background advances (the
 * sweep's write cases at one point leave 1,500-3,000), so that the whole 1M list was counted,
 * in 2-4 s, where the writes since took a fraction of that (docs/benchmarks.md, "Counts
 * brought forward past a busy list's writes").
 */
export const KEPT_MAX_CHANGES = 20 * MAX_CHANGES_TO_ADVANCE;

/** What one kind of kept counts brings to their advance (bandCounts.ts, valueCounts.ts). */
export interface KeptCountsAdvance extends KeptCountsOf {
  /** the counts as kept, rows of (key, n) read from `kept` */
  counted: SQL;
  /** a row's key (its band or its value), of list_items' columns */
  keyOf: SQL;
  /** which keys of `per (key, n)` stay */
  keeps: SQL;
  /** the arrays set from `per` */
  write: SQL;
  /**
   * How long after the last count of the whole list the counts may still be brought forward
   * rather than counted again; unset, for ever.
   */
  countAgainAfter?: string;
}

/**
 * A list slot's kept counts brought forward over the writes since their snapshot, in one
 * statement that takes its own: each record a write touched since leaves the key (band or
 * value) of the row the counts saw (its first unseen change's `previous`; none if that change
 * created it) and takes the key of its row now (none if deleted) — advanceTotal's rule, per
 * key. Its cost is the keys and the writes since, where a count reads the whole slot. False
 * where only a count can say (advanceable): no counts, a field change since, a change without
 * its previous row, a purged feed, more than KEPT_MAX_CHANGES writes; or where the kind
 * asks for a count again after a while (`countAgainAfter`). `counted_at` stays the time of the
 * last count of the whole list.
 */
export async function advanceKeptCounts(db: Database, a: KeptCountsAdvance): Promise<boolean> {
  const scope = listScope(a.ownerId, a.listId);
  const slot = sql.raw(String(a.slot));
  const since = sql`(select since from kept)`;
  const rows = await queryRows(
    db,
    sql`with kept as (
          select ${sql.join(
            a.arrays.map((name) => sql.identifier(name)),
            sql`, `,
          )}, snapshot::pg_snapshot as since, version, layout, counted_at
          from ${a.table} where ${scope} and slot = ${slot}),
        ${unseenChanges(a.ownerId, a.listId, since, KEPT_MAX_CHANGES)},
        list as (
          select version, layout from ${listSchemas}
          where owner_id = ${a.ownerId} and id = ${a.listId} and deleted_at is null),
        usable as (
          select 1 from kept, list where ${advanceable(since, 'kept', 'list', KEPT_MAX_CHANGES)}
            ${
              a.countAgainAfter
                ? sql`and kept.counted_at > now() - ${a.countAgainAfter}::interval`
                : sql``
            }),
        moves (key, n) as (
          ${a.counted}
          union all
          select ${a.keyOf}, 1 from ${listItems}
          where ${scope} and id in (select item_id from firsts)
          union all
          select ${a.keyOf}, -1 from firsts f,
            jsonb_populate_record(null::${listItems}, f.previous) as ${listItems}
          where f.type <> ${CREATED} and ${scope}),
        per as (select key, sum(n) as n from moves where key is not null group by key),
        kept_per as (select key, n from per where ${a.keeps})
        update ${a.table} set ${a.write},
          snapshot = pg_current_snapshot()::text, version = (select version from list),
          layout = (select layout from list)
        where ${scope} and slot = ${slot} and exists (select 1 from usable)
        returning 1`,
  );
  return rows.length > 0;
}
