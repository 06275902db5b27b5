import { sql, type SQL } from 'drizzle-orm';
import { queryRowsNamedIf } from '../../infra/db/shapeStatements.js';
import { listItems } from '../../infra/db/schema/listItems.js';
import { listSchemas } from '../../infra/db/schema/listSchemas.js';
import type { SortSegment } from '../filters/compile.js';
import { hasLinks, type ItemQuery } from '../filters/query.js';
import { toPageRow, type PageRow, type StoredItemRow } from './foundItem.js';
import { plannedUnless } from '../../infra/db/unplannedValue.js';
import { recordColumns, writtenRecords } from './recordJson.js';
import { pageWindow } from './pageQueries.js';
import {
  countedTotal,
  countTotal,
  isNamed,
  type CountedTotal,
  type TotalRow,
  type TotalTarget,
} from './listTotals.js';
import { ORDER_INDEX_INCLUDES, sortColumn } from './pageStrategy.js';
import { hasPinnedPlan } from './pinnedPlans.js';
import { isSlotColumn } from '../slots.js';
import { listScope } from './listScope.js';
import { recordsFrom } from './listRecords.js';

/**
 * A first-time read's total and its page in one statement, where one scan serves both: the
 * matches (of one equality, or of combined conditions: sharedScanColumn) are read once with
 * the sort's column, counted, and the page is the top of them — the
 * filter-first page (pageStrategy.ts) without a second scan, and without a second round trip.
 * A round trip is the dearer part on a machine where each socket write wakes the other side:
 * the service's write of a statement was a quarter of its CPU a request (docs/benchmarks.md,
 * "One statement for the count and the page").
 *
 * Only where the page would be read by filtering first, which the count decides: the scan
 * stops at `cap + 1` matches (cap: filterFirstLimit, the most for which filtering first is
 * the cheaper read), and past it the total is counted on its own and the page is left to
 * the usual read. A read tries it when the last count of the same condition on the list was
 * within the cap (shapeTotals.ts), so a shape that matches many records pays its scan once.
 */

/** Where the page sits: the request's limit and offset. */
export interface PageAt {
  limit: number;
  offset: number;
}

/** The page a counted read brought with its total. */
export interface CountedRows extends PageAt {
  rows: PageRow[];
}

/** A counted total, and the page when the matches were within the cap. */
export interface CountedPage extends CountedTotal {
  page?: CountedRows;
}

/** How a count may bring its page: the order's column, its first segment, and the cap. */
export interface PageWithCount extends PageAt {
  column: string;
  segment: SortSegment;
  cap: number;
  /** the records' JSON where Postgres writes them (recordJson.ts) */
  record?: SQL;
}

/**
 * The column a scan of the matches returns for the page's order, or undefined where no one
 * scan serves both:
 *
 * - one equality on a slot (a pinned shape, pinnedPlans.ts) whose index includes the sort's
 *   column. Not one range: with its bound visible Postgres planned the statement for each
 *   value, which cost more than the round trip saved (a range matching nothing at 0.70 of the
 *   count alone); with the bound hidden (filters/compile.ts) the plan it kept for the
 *   statement was slower still (0.46 matching nothing, 0.82 at 0.1 %).
 * - two or more conditions, each on a slot. These are planned for their values on every
 *   request either way (never named), so one statement is planned once instead of twice,
 *   besides the round trip saved (docs/benchmarks.md, "A combined filter's count and page in
 *   one statement").
 */
export function sharedScanColumn(query: ItemQuery): string | undefined {
  const column = sortColumn(query);
  if (column === undefined) return undefined;
  if (hasPinnedPlan(query)) {
    const [condition] = query.conditions;
    if (condition!.op !== '=') return undefined;
    return ORDER_INDEX_INCLUDES[condition!.field.slot!]?.includes(column) ? column : undefined;
  }
  return isCombined(query) ? column : undefined;
}

/** Two or more conditions, each on a slot column, with no contact or bot link. */
function isCombined(query: ItemQuery): boolean {
  if (hasLinks(query) || query.conditions.length < 2) return false;
  return query.conditions.every((c) => isSlotColumn(c.field.slot));
}

type CountedPageRow = TotalRow & StoredItemRow;

/**
 * The total with the list's version, layout and record count in the same snapshot (as
 * countTotal), and the page's rows when the matches are within the cap. Past the cap the
 * total is counted on its own.
 */
export async function countWithPage(
  target: TotalTarget,
  plan: PageWithCount,
): Promise<CountedPage> {
  const { db, ownerId, listId, where } = target;
  const { column, segment, cap, limit, offset, record } = plan;
  // named: the values Postgres would plan for kept out of its sight (unplannedValue.ts)
  const named = isNamed(target);
  // `m as list_items`: the order's SQL names the table's columns, which the scan's rows carry.
  // The matches are sorted as they are: no index can supply the order of a CTE's rows, so the
  // unindexed form's `+ 0` would only be computed for each (an eighth of the statement's time
  // at 1,000 matches, docs/benchmarks.md, "A count's matches sorted as they are").
  const rows = await queryRowsNamedIf<CountedPageRow>(
    named,
    db,
    sql`with m as materialized (
          select id, ${sql.identifier(column)} from ${recordsFrom(target)} where ${where}
          limit ${plannedUnless(named, cap + 1, 'int')}),
        t as (
          select count(*) as n, array(
            select id from m as ${listItems} where ${segment.where ?? sql`true`}
            order by ${segment.orderBy} ${pageWindow(limit, offset, named)}) as ids
          from m)
        select t.n, l.version, l.layout, l.item_count, l.deleted_at is null as live,
          pg_current_snapshot()::text as snapshot, i.*
        from t
        left join ${listSchemas} l on l.owner_id = ${ownerId} and l.id = ${listId}
        left join lateral (${writtenRecords(
          // `offset 0`: a subquery of its own (writtenRecords)
          sql`select ${recordColumns(record)}, array_position(t.ids, id) as pos
            from ${recordsFrom(target)}
            where t.n <= ${plannedUnless(named, cap, 'int')}
              and ${listScope(ownerId, listId, named)} and id = any(t.ids)
            offset 0`,
          record,
          ', pos',
        )}) i
          on true
        order by i.pos`,
  );
  const counted = countedTotal(rows[0]);
  if (counted.total > cap) return countTotal(target);
  return {
    ...counted,
    page: {
      limit,
      offset,
      rows: rows.filter((row) => row.id !== null).map(toPageRow),
    },
  };
}
