import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../infra/db/client.js';
import { listBandCounts } from '../../infra/db/schema/listBandCounts.js';
import { listItems } from '../../infra/db/schema/listItems.js';
import { COMPLEMENT, rangeComparison, type Hiding } from '../filters/compile.js';
import { hasLinks, type ItemQuery } from '../filters/query.js';
import { advanceTotal, type AdvancedTotal, type Band, type TotalTarget } from './listTotals.js';
import { outsidePair, type SlotRange } from './bandPairs.js';
import { advanceKeptCounts, countKeptCounts } from './keptCountStatements.js';
import { listScope } from './listScope.js';
import type { Recounts } from './recounts.js';

/**
 * Counts per value band (docs/records.md, "Counts per value band"). A list's records are
 * counted per band of a number or date slot's values in one statement, with that statement's
 * snapshot (schema/listBandCounts.ts). A range's total on the slot is then
 *
 * - below a bound (`<`, `<=`): the records of the bands under the bound's band, as counted,
 *   brought forward over the writes since (advanceTotal, on `column < the band's lowest
 *   value`), plus the records from that lowest value up to the bound, counted now;
 * - above it (`>`, `>=`): the bands from the bound's band up, brought forward the same way (on
 *   `column >= the lowest value`), less the records from the lowest value up to the bound
 *   (the ones the condition leaves out), counted now.
 *
 * So a first-time range reads the list's one row of band counts, the writes since it and one
 * band of the slot's index, where counting reads every match: about 90 bands a decade of
 * numbers, a day of dates.
 *
 * Two ranges combined, `a AND b`, both on banded slots, where their shape last held more than
 * half the list (keptCounts.ts, PAIR_MIN_SHARE): `a`'s total as above, less the records `a`
 * holds on the other side of `b`'s bound, counted now — where no record lacks a value for `b`
 * (bandPairs.ts). That count reads the smaller of `a`'s range and `b`'s complement in an
 * index, at most the records the pair leaves out, where counting the pair reads at least the
 * records it holds.
 *
 * The counts are taken again, in the background, when a read found none or found them too far
 * behind (recounts.ts); the writes never touch them.
 */

/** The slots whose values are counted per band, by their number in list_band_counts.slot. */
export const BANDED_SLOTS: Readonly<Record<string, number>> = { n1: 1, n2: 2, n3: 3, d1: 4, d2: 5 };

/**
 * A range a list's band counts can answer: its slot, and its comparison; in a pair, the other
 * range, whose complement is counted (`pairedWith`).
 */
interface BandedRange extends SlotRange {
  pairedWith?: SlotRange;
}

/**
 * The query's range when the band counts can answer it, else undefined: its one condition, a
 * range on a banded slot; or, where `pairs` allows, two such ranges, the first's counts
 * answering and the second's complement counted (bandPairs.ts).
 */
function bandedRange(query: ItemQuery, hiding: Hiding, pairs: boolean): BandedRange | undefined {
  const { conditions } = query;
  if (hasLinks(query) || conditions.length === 0 || conditions.length > (pairs ? 2 : 1))
    return undefined;
  // each a range on a banded slot: the first's counts answer, the second's say its empty values
  const ranges = conditions.map((c): BandedRange | undefined => {
    const slot = c.field.slot ? BANDED_SLOTS[c.field.slot] : undefined;
    const range = slot === undefined ? undefined : rangeComparison(c, hiding);
    return range && { ...range, slot: slot!, dated: c.kind === 'date' || c.kind === 'datetime' };
  });
  const [range, pairedWith] = ranges;
  if (!range || (ranges.length > 1 && !pairedWith)) return undefined;
  return { ...range, ...(pairedWith ? { pairedWith } : {}) };
}

/** list_band_counts' arrays: the bands, and the running totals of their records */
const BAND_ARRAYS = ['bands', 'cumulative'] as const;

/** A value's band, as list_band_counts names it (migration 0019). */
function bandOf(dated: boolean, value: SQL): SQL {
  return dated ? sql`list_day_band(${value})` : sql`list_number_band(${value})`;
}

/** The advance that answers a banded range (the comment at the top). */
function bandedAdvance(range: BandedRange, target: TotalTarget, hidden: boolean) {
  const { column, op, bound, slot, dated, ofBound } = range;
  const scope = listScope(target.ownerId, target.listId, hidden);
  // the band function applied inside the bound's hiding (RangeComparison.ofBound); applied to
  // the hidden bound, it ran as a function call per band compared (8.6 ms for 438 bands)
  const boundBand = sql`(select ${ofBound((operand) => bandOf(dated, operand))})`;
  // a band's lowest value: a number band's name, a day's first second
  const lowest = dated ? sql`to_timestamp(${boundBand}::float8)` : boundBand;
  const below = op === '<' || op === '<=';
  // the bands under the bound's: those at or below it (a binary search), less its own if held
  const under = sql`width_bucket(${boundBand}, bands)
    - (bands[width_bucket(${boundBand}, bands)] = ${boundBand})::int`;
  const belowTotal = sql`coalesce(cumulative[${under}], 0)`;
  const total = below
    ? belowTotal
    : sql`coalesce(cumulative[cardinality(cumulative)], 0) - ${belowTotal}`;
  const kept = sql`select snapshot::pg_snapshot as since, version, layout, ${total} as total
    from ${listBandCounts} where ${scope} and slot = ${sql.raw(String(slot))}`;
  const where = sql`${scope} and ${column} ${sql.raw(below ? '<' : '>=')} ${lowest}`;
  // the bound's own band up to the bound: added below it, left out above it
  const upTo = below ? op : COMPLEMENT[op];
  const inBand = sql`${scope} and ${column} >= ${lowest} and ${column} ${sql.raw(upTo)} ${bound}`;
  const band: Band = below ? { plus: [inBand], minus: [] } : { plus: [], minus: [inBand] };
  if (range.pairedWith) {
    const { minus, holds } = outsidePair(target, range, range.pairedWith);
    band.minus.push(minus);
    band.holds = holds;
  }
  return { target: { ...target, where }, from: { kept }, band };
}

/**
 * A range's total from the list's band counts — or, where `pairs` allows, two ranges' — or
 * undefined where they cannot answer (no range on a banded slot, no counts yet, a field change
 * since, too many writes since): the caller counts then, and `recounts` takes the counts again
 * meanwhile (recounts.ts).
 */
export function bandTotal(
  db: Database,
  recounts: Recounts,
  target: TotalTarget,
  query: ItemQuery,
  pairs = false,
): Promise<AdvancedTotal | undefined> | undefined {
  const hiding = target.hiding ?? 'none';
  const range = bandedRange(query, hiding, pairs);
  if (!range) return undefined;
  const { ownerId, listId } = query;
  const { target: whole, from, band } = bandedAdvance(range, target, hiding === 'all');
  // a pair answers where both slots' counts are usable: its recount brings both forward
  const { pairedWith } = range;
  const slots = pairedWith ? [range, pairedWith] : [range];
  const key = [listId, ...slots.map((s) => s.slot)].join(':');
  // the slots whose counts could not be brought forward: counted again
  let behind: SlotRange[] = [];
  return recounts.read(key, () => advanceTotal(whole, from, band), {
    advance: async () => {
      behind = [];
      for (const s of slots) if (!(await advanceBands(db, ownerId, listId, s))) behind.push(s);
      return behind.length === 0;
    },
    count: async () => {
      for (const s of behind) await countBands(db, ownerId, listId, s);
    },
  });
}

/** Counts the slot's records per band (countKeptCounts). */
function countBands(db: Database, ownerId: number, listId: string, range: SlotRange) {
  const column = range.column;
  return countKeptCounts(db, {
    table: listBandCounts,
    ownerId,
    listId,
    slot: range.slot,
    arrays: BAND_ARRAYS,
    counted: sql`select array_agg(band order by band) as first,
        array_agg(upto order by band) as second
      from (select band, sum(n) over (order by band) as upto
            from (select ${bandOf(range.dated, column)} as band, count(*) as n
                  from ${listItems} where ${listScope(ownerId, listId)} and ${column} is not null
                  group by 1) per) x`,
  });
}

/** The list's band counts brought forward over the writes since (advanceKeptCounts). */
function advanceBands(
  db: Database,
  ownerId: number,
  listId: string,
  range: SlotRange,
): Promise<boolean> {
  return advanceKeptCounts(db, {
    table: listBandCounts,
    ownerId,
    listId,
    slot: range.slot,
    arrays: BAND_ARRAYS,
    // the records of each band, from the running totals
    counted: sql`select u.band, u.upto - coalesce(lag(u.upto) over (order by u.i), 0)
      from kept, unnest(kept.bands, kept.cumulative) with ordinality as u(band, upto, i)`,
    keyOf: bandOf(range.dated, range.column),
    keeps: sql`n <> 0`,
    write: sql`bands = coalesce((select array_agg(key order by key) from kept_per), '{}'),
      cumulative = coalesce((select array_agg(upto order by key)
        from (select key, sum(n) over (order by key) as upto from kept_per) x), '{}')`,
  });
}
