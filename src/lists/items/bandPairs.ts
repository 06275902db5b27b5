import { sql, type SQL } from 'drizzle-orm';
import { listBandCounts } from '../../infra/db/schema/listBandCounts.js';
import { listItems } from '../../infra/db/schema/listItems.js';
import { listSchemas } from '../../infra/db/schema/listSchemas.js';
import { COMPLEMENT, type RangeComparison } from '../filters/compile.js';
import { advanceable, CREATED, unseenChanges, type TotalTarget } from './listTotals.js';
import { recordsFrom } from './listRecords.js';
import { listScope } from './listScope.js';

/**
 * Two ranges combined, `a AND b`, totalled from `a`'s band counts (bandCounts.ts): `a`'s total
 * less the records `a` holds that `b` does not. Those are the records on the other side of
 * `b`'s bound, one range of `b`'s index, and the records with no value for `b` (a comparison
 * with no value is not true), which no index of `b` holds: its indexes leave empty values out,
 * so counting them reads every entry of `a`'s range, the very count the pair avoids. So the
 * counts answer only where the list holds no empty `b` — `b`'s own band counts, brought
 * forward to the statement's snapshot, say so exactly — and elsewhere the pair is counted.
 */

/** A range on a slot whose values are counted per band: its comparison and its slot. */
export interface SlotRange extends RangeComparison {
  /** the slot's number in list_band_counts.slot */
  slot: number;
  /** a date's slot, banded by day */
  dated: boolean;
}

/**
 * What to take from `a`'s total (a WHERE on the list's records: listTotals.ts, Band) — the
 * records `a` holds on the other side of `pair`'s bound — and the condition under which that
 * is all: every record holds a value for `pair`.
 */
export function outsidePair(
  target: TotalTarget,
  a: RangeComparison,
  pair: SlotRange,
): { minus: SQL; holds: SQL } {
  const scope = listScope(target.ownerId, target.listId);
  const other = sql`${pair.column} ${sql.raw(COMPLEMENT[pair.op])} ${pair.bound}`;
  return {
    minus: sql`${scope} and ${a.column} ${sql.raw(a.op)} ${a.bound} and ${other}`,
    holds: sql`coalesce(${everyRecordHolds(target, pair)}, false)`,
  };
}

/**
 * Whether every record of the list holds a value in the slot now: the records with one as
 * the slot's band counts saw them (their last running total), brought forward over the
 * writes since exactly as a total is (listTotals.ts, advanceTotal), against the list's record
 * count in the same snapshot. Null where the counts cannot say (none, or not advanceable).
 */
function everyRecordHolds(target: TotalTarget, { slot, column }: SlotRange): SQL {
  const { ownerId, listId } = target;
  const scope = listScope(ownerId, listId);
  const since = sql`(select since from kept)`;
  const valued = sql`${column} is not null`;
  return sql`(with kept as (
        select snapshot::pg_snapshot as since, version, layout,
          coalesce(cumulative[cardinality(cumulative)], 0) as total
        from ${listBandCounts} where ${scope} and slot = ${sql.raw(String(slot))}),
      ${unseenChanges(ownerId, listId, since)}
      select ${advanceable(since, 'k', 'l')} and l.item_count = k.total
        + (select count(*) from ${recordsFrom(target)}
            where ${scope} and ${valued} and id in (select item_id from firsts))
        - (select count(*) from firsts f,
              jsonb_populate_record(null::${listItems}, f.previous) as ${listItems}
            where f.type <> ${CREATED} and ${valued})
      from kept k, ${listSchemas} l
      where l.owner_id = ${ownerId} and l.id = ${listId} and l.deleted_at is null)`;
}
