import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../infra/db/client.js';
import { listItems } from '../../infra/db/schema/listItems.js';
import { listSchemas } from '../../infra/db/schema/listSchemas.js';
import { listValueCounts } from '../../infra/db/schema/listValueCounts.js';
import { fieldExpression } from '../filters/columns.js';
import { hasLinks, type ItemQuery } from '../filters/query.js';
import { advanceTotal, type AdvancedTotal, type TotalTarget } from './listTotals.js';
import { recordsFrom } from './listRecords.js';
import { advanceKeptCounts, countKeptCounts } from './keptCountStatements.js';
import { listScope } from './listScope.js';
import type { Recounts } from './recounts.js';

/**
 * Counts per text value (docs/records.md, "Counts per text value"): the band counts' way
 * (bandCounts.ts) for an equality on a text slot. A list's records are counted per value of the
 * slot in one statement, with its snapshot, keeping the values that held at least
 * VALUE_MIN_SHARE of the list (schema/listValueCounts.ts). An equality's total on one of them
 * is its count brought forward over the writes since (advanceTotal, on the equality itself):
 * one row and the writes since read, where counting reads every match. A value not kept (a
 * rare one when counted) is counted. Taken again in the background like the band counts
 * (recounts.ts); the writes never touch them.
 */

/** The slots whose values are counted, by their number in list_value_counts.slot. */
export const COUNTED_SLOTS: Readonly<Record<string, number>> = { t1: 1, t2: 2, t3: 3 };

/**
 * A value is kept when it held at least this share of the list's records at the count: so a
 * slot keeps at most a thousand values, and a value matching fewer is counted, cheaply.
 */
export const VALUE_MIN_SHARE = 0.001;

/**
 * The value counts are brought forward for this long after the list was last counted, then
 * counted again: an advance moves only the values kept, so a value that grew frequent since
 * (a new city the bot's users flock to) is counted on each read until the list is counted anew.
 */
export const VALUES_COUNTED_AGAIN_AFTER = '1 hour';

/** list_value_counts' arrays: the values kept, and their records */
const VALUE_ARRAYS = ['vals', 'counts'] as const;

/** Values compare byte by byte, as `=` does and whatever the database's collation sorts. */
const BYTES = sql.raw('collate "C"');

/** The one equality of a query when the value counts can answer it, else undefined. */
function countedEquality(query: ItemQuery): { slot: number; value: string } | undefined {
  const [condition, ...more] = query.conditions;
  if (!condition || more.length > 0 || hasLinks(query)) return undefined;
  if (condition.op !== '=' || condition.kind !== 'text') return undefined;
  const slot = condition.field.slot ? COUNTED_SLOTS[condition.field.slot] : undefined;
  return slot === undefined ? undefined : { slot, value: condition.operand };
}

/**
 * An equality's total from the list's value counts, or undefined where they cannot answer (not
 * one equality on a counted slot, no counts yet, a field change since, too many writes since):
 * the caller counts then, and `recounts` takes the counts again meanwhile (recounts.ts). A
 * value the counts do not keep (one rare when counted) is counted in the same statement, in
 * its snapshot: no reason to count the list again.
 */
export function valueTotal(
  db: Database,
  recounts: Recounts,
  target: TotalTarget,
  query: ItemQuery,
): Promise<AdvancedTotal | undefined> | undefined {
  const equality = countedEquality(query);
  if (!equality) return undefined;
  const { ownerId, listId } = query;
  const slot = sql.raw(String(equality.slot));
  const value = sql`${equality.value}::text ${BYTES}`;
  const scope = listScope(ownerId, listId, target.hiding === 'all');
  // `kept` is whether the value is; where it is not, the count and the list's own version
  // and layout are read instead (a CASE evaluates its count only then)
  const kept = sql`select
        case when kept then c.snapshot::pg_snapshot else pg_current_snapshot() end as since,
        case when kept then c.version else l.version end as version,
        case when kept then c.layout else l.layout end as layout,
        case when kept then c.counts[at]
          else (select count(*) from ${recordsFrom(target)} where ${target.where}) end as total
      from ${listValueCounts} c
        cross join lateral (select width_bucket(${value}, c.vals) as at) found
        cross join lateral (select coalesce(c.vals[at] = ${value}, false) as kept) held
        left join lateral (select version, layout from ${listSchemas}
          where not held.kept and owner_id = ${ownerId} and id = ${listId}) l on true
      where ${scope} and slot = ${slot}`;
  const column = fieldExpression(query.conditions[0]!.field, 'text');
  return recounts.read(`${listId}:${equality.slot}`, () => advanceTotal(target, { kept }), {
    advance: () => advanceValues(db, ownerId, listId, equality.slot, column),
    count: () => countValues(db, ownerId, listId, equality.slot, column),
  });
}

/** Counts the slot's records per value, keeping the frequent values (countKeptCounts). */
function countValues(db: Database, ownerId: number, listId: string, slot: number, column: SQL) {
  return countKeptCounts(db, {
    table: listValueCounts,
    ownerId,
    listId,
    slot,
    arrays: VALUE_ARRAYS,
    counted: sql`select array_agg(v order by v ${BYTES}) as first,
        array_agg(n order by v ${BYTES}) as second
      from (select ${column} as v, count(*) as n
            from ${listItems} where ${listScope(ownerId, listId)} and ${column} is not null
            group by 1
            having count(*) >= greatest(1, ceil(l.item_count * ${VALUE_MIN_SHARE}::numeric))) per`,
  });
}

/**
 * The list's value counts brought forward over the writes since (advanceKeptCounts): the kept
 * values' counts only, so a value not kept stays so until the list is counted again
 * (VALUES_COUNTED_AGAIN_AFTER).
 */
function advanceValues(
  db: Database,
  ownerId: number,
  listId: string,
  slot: number,
  column: SQL,
): Promise<boolean> {
  return advanceKeptCounts(db, {
    table: listValueCounts,
    ownerId,
    listId,
    slot,
    arrays: VALUE_ARRAYS,
    counted: sql`select u.v, u.n from kept, unnest(kept.vals, kept.counts) as u(v, n)`,
    keyOf: column,
    keeps: sql`key = any((select vals from kept)::text[])`,
    write: sql`vals = coalesce((select array_agg(key order by key ${BYTES}) from kept_per), '{}'),
      counts = coalesce((select array_agg(n order by key ${BYTES}) from kept_per), '{}')`,
    countAgainAfter: VALUES_COUNTED_AGAIN_AFTER,
  });
}
