import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../infra/db/client.js';
import { queryRowsNamedIf } from '../../infra/db/shapeStatements.js';
import { listItems } from '../../infra/db/schema/listItems.js';
import { listSchemas } from '../../infra/db/schema/listSchemas.js';
import type { ChangeType } from '../../changes/changeTypes.js';
import type { Hiding } from '../filters/compile.js';
import { recordsFrom, type ListRecords } from './listRecords.js';

/**
 * A filtered total as one snapshot saw it, with what a later read needs to bring it forward:
 * the list's version and field layout in that snapshot, and the snapshot itself.
 */
export interface SnapshotTotal {
  total: number;
  version: number;
  layout: number;
  /** `pg_current_snapshot()` of the statement that produced the total, as text */
  snapshot: string;
}

/** Where a filtered total is counted or advanced: the list and the compiled WHERE. */
export interface TotalTarget {
  db: Database;
  ownerId: number;
  listId: string;
  where: SQL;
  /** what of `where`'s values the planner does not see (filters/compile.ts; none by default) */
  hiding?: Hiding;
  /** the table the list's records are read from (listRecords.ts; list_items by default) */
  records?: ListRecords;
}

/**
 * Whether a target's statements go under their shape's name (infra/db/shapeStatements.ts):
 * exactly where every value is hidden, the plan then being the same for any value
 * (listRead.ts, readTarget).
 */
export function isNamed(target: Pick<TotalTarget, 'hiding'>): boolean {
  return target.hiding === 'all';
}

/**
 * Past this many changes since a remembered total, counting again is the cheaper way: each
 * change costs a primary-key probe, a count walks an index of the list.
 */
export const MAX_CHANGES_TO_ADVANCE = 2_000;

export const CREATED: ChangeType = 'list_item.created';

/**
 * The CTEs `ev`, the list's changes that the snapshot `since` did not see (at most
 * `most` + 1 of them), and `firsts`, each record's first of them: what advanceTotal applies to
 * a total, and keptCountStatements.ts to a list's kept counts.
 */
export function unseenChanges(
  ownerId: number,
  listId: string,
  since: SQL,
  most = MAX_CHANGES_TO_ADVANCE,
): SQL {
  return sql`ev as (
          select seq, type, item_id, previous from changes
          where account_id = ${ownerId} and txid >= pg_snapshot_xmin(${since})
            and schema_id = ${listId} and not pg_visible_in_snapshot(txid, ${since})
          limit ${most + 1}),
        firsts as (
          select distinct on (item_id) item_id, type, previous from ev order by item_id, seq)`;
}

/** The columns countTotal reads with a total (countedPage.ts reads the same). */
export interface TotalRow {
  n: string | number;
  version: string | number | null;
  layout: number | null;
  item_count: string | number | null;
  live: boolean | null;
  snapshot: string;
}

/** A counted total, with the list's record count in the same snapshot. */
export interface CountedTotal extends SnapshotTotal {
  /** undefined when the list is gone or deleted */
  itemCount: number | undefined;
}

/**
 * Counts the matches, reading the list's version, layout and record count in the same
 * snapshot (a read of a remembered list takes the list from here: listRead.ts).
 */
export async function countTotal(target: TotalTarget): Promise<CountedTotal> {
  const { db, ownerId, listId, where } = target;
  const [row] = await queryRowsNamedIf<TotalRow>(
    isNamed(target),
    db,
    sql`select c.n, l.version, l.layout, l.item_count, l.deleted_at is null as live,
          pg_current_snapshot()::text as snapshot
        from (select count(*) as n from ${recordsFrom(target)} where ${where}) c
        left join ${listSchemas} l on l.owner_id = ${ownerId} and l.id = ${listId}`,
  );
  return countedTotal(row);
}

/** A count's row as a CountedTotal. */
export function countedTotal(row: TotalRow | undefined): CountedTotal {
  return {
    total: Number(row?.n ?? 0),
    // a list gone meanwhile: nothing can be advanced from this total
    version: row?.version == null ? -1 : Number(row.version),
    layout: row?.layout ?? -1,
    snapshot: row?.snapshot ?? '',
    itemCount: row?.live === true ? Number(row.item_count) : undefined,
  };
}

/**
 * Whether the writes since `since` can be brought to a total taken at row `kept`'s version and
 * layout, the list being row `list` (each an alias with those two columns), in SQL over
 * unseenChanges' tables: no field change since, no list version older than the total's, at most
 * `most` changes (as unseenChanges was given), each record's first unseen change keeping its
 * previous row, and the feed not purged past the snapshot (advanceTotal tells why). Null reads
 * as no.
 */
export function advanceable(
  since: SQL,
  kept: string,
  list: string,
  most = MAX_CHANGES_TO_ADVANCE,
): SQL {
  const [k, l] = [sql.raw(kept), sql.raw(list)];
  return sql`(${l}.layout = ${k}.layout and ${l}.version >= ${k}.version
    and (select count(*) from ev) <= ${most}
    and not exists (select 1 from firsts where type <> ${CREATED} and previous is null)
    and (select purged_txid < pg_snapshot_xmin(${since}) from change_feed_state))`;
}

interface AdvanceRow {
  base_total: string | number;
  version: string | number;
  layout: number;
  item_count: string | number;
  snapshot: string;
  events: string | number;
  usable: boolean | null;
  matching_now: string | number;
  matching_before: string | number;
  band: string | number;
}

/**
 * A total kept in the database rather than held by the caller (the band counts,
 * bandCounts.ts): a statement of at most one row with `since` (a pg_snapshot), `version`,
 * `layout` and `total`, read in the advance's own statement.
 */
export interface KeptTotal {
  kept: SQL;
}

/**
 * More counts in the advance's snapshot, each a WHERE on the list's records, added to and
 * taken from its total: how a neighbour's total becomes another bound's (rangeNeighbours.ts),
 * and the band counts' total a range's or a pair of ranges' (bandCounts.ts).
 */
export interface Band {
  plus: SQL[];
  minus: SQL[];
  /**
   * a condition without the records' columns under which alone the counts answer (a pair's
   * second range without empty values, bandPairs.ts): where it does not hold, the total is
   * left to a count, and the band's counts are not run
   */
  holds?: SQL;
}

/** An advanced total, with the list's record count and the total it was advanced from. */
export interface AdvancedTotal extends CountedTotal {
  itemCount: number;
  /** `from` brought forward, before the band */
  base: SnapshotTotal;
  /** the writes applied (the changes since `from`'s snapshot) */
  events: number;
  /**
   * whether a write since `from` touched a record the WHERE held then or holds now (without a
   * band): where none did, the selection's records and their values are those of `from`'s
   * version, and so is every page of it (listRead.ts, carryPages)
   */
  touched: boolean;
}

/**
 * `from` brought forward to the present, or undefined when only a count can say. Every
 * record write commits its change-feed rows in its own transaction, so the transactions
 * `from.snapshot` did not see are exactly the changes its total misses, and the records they
 * touched are the only ones whose match can differ. For each such record the total moves by
 * whether it matches now (the same WHERE on the live row, one primary-key probe) less whether
 * it matched then: not at all if its first unseen change created it, else by the same WHERE
 * on the row its first unseen change kept as `previous` (writes of one record are serialized,
 * so that row is the one the snapshot saw). All in one snapshot with the list's version.
 * A change without its previous row, a field change, a purged feed or too many changes mean
 * counting again.
 */
export async function advanceTotal(
  target: TotalTarget,
  from: SnapshotTotal | KeptTotal,
  band?: Band,
): Promise<AdvancedTotal | undefined> {
  const { db, ownerId, listId, where } = target;
  const base =
    'kept' in from
      ? from.kept
      : sql`select ${from.snapshot}::pg_snapshot as since, ${from.version}::bigint as version,
          ${from.layout}::int as layout, ${from.total}::bigint as total`;
  const since = sql`(select since from base)`;
  const usable = band?.holds
    ? sql`(${advanceable(since, 'b', 'l')} and ${band.holds})`
    : advanceable(since, 'b', 'l');
  const [row] = await queryRowsNamedIf<AdvanceRow>(
    isNamed(target),
    db,
    sql`with base as (${base}),
        ${unseenChanges(ownerId, listId, since)}
        select b.total as base_total, l.version, l.layout, l.item_count,
          pg_current_snapshot()::text as snapshot, (select count(*) from ev) as events,
          u.usable,
          (select count(*) from ${recordsFrom(target)}
            where ${where} and id in (select item_id from firsts)) as matching_now,
          (select count(*) from firsts f,
              jsonb_populate_record(null::${listItems}, f.previous) as ${listItems}
            where f.type <> ${CREATED} and ${where}) as matching_before,
          ${band ? sql`case when u.usable then ${bandSql(target, band)} end` : sql`0`} as band
        -- offset 0: usable computed once, not copied into each place that reads it
        from base b, ${listSchemas} l, lateral (select ${usable} as usable offset 0) u
        where l.owner_id = ${ownerId} and l.id = ${listId} and l.deleted_at is null`,
  );
  if (!row || row.usable !== true) return undefined;
  const advanced = {
    total: Number(row.base_total) + Number(row.matching_now) - Number(row.matching_before),
    version: Number(row.version),
    layout: row.layout,
    snapshot: row.snapshot,
  };
  return {
    ...advanced,
    total: advanced.total + Number(row.band),
    itemCount: Number(row.item_count),
    base: advanced,
    events: Number(row.events),
    touched: Number(row.matching_now) + Number(row.matching_before) > 0,
  };
}

/** A Band's counts as one SQL sum: each count a subquery of its own. */
function bandSql(target: TotalTarget, band: Band): SQL {
  const count = (where: SQL) => sql`(select count(*) from ${recordsFrom(target)} where ${where})`;
  const terms = [
    ...band.plus.map((where) => sql`+ ${count(where)}`),
    ...band.minus.map((where) => sql`- ${count(where)}`),
  ];
  return sql`(0 ${sql.join(terms, sql` `)})`;
}
