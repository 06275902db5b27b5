import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../infra/db/client.js';
import { queryRowsNamedIf } from '../../infra/db/shapeStatements.js';
import { listItems } from '../../infra/db/schema/listItems.js';
import type { SortSegment } from '../filters/compile.js';
import { toPageRow, type PageRow, type StoredItemRow } from './foundItem.js';
import { plannedUnless, unplanned } from '../../infra/db/unplannedValue.js';
import { listScope } from './listScope.js';
import { LIST_ITEMS, recordsFrom, type ListRecords } from './listRecords.js';
import { recordColumns, writtenRecords } from './recordJson.js';
import { ONE_PASS_MAX_SKIPPED, type MatchedBy } from './pageStrategy.js';

/**
 * The page of one sort segment. The "deferred join" runs ORDER BY … OFFSET … LIMIT on ids
 * alone (index-only where an index serves the order), then fetches just the page's rows, so
 * a deep page passes over index entries, not rows (docs/records.md); a filtered one may also
 * test its conditions on an index's included columns without visiting the heap. The ids come
 * back as an array the primary key is probed with, not as a join: Postgres then plans the two
 * parts apart, where `id in (…)` has it weigh every way of joining the table to itself
 * (planning 0.35 ms against 0.83, the same execution; docs/benchmarks.md, "The deferred
 * join without a join"). A shallow page reads its rows in one pass instead (`onePass`): one
 * relation planned, not two, and no second probe per row. `hidden`: the owner, the limit and
 * the offset out of the planner's sight, as `where`'s are, for a statement kept under its
 * shape's name (infra/db/unplannedValue.ts). (Exported so a test can read its plan.)
 */
export function pageQuery(
  list: ListRef,
  where: SQL,
  orderBy: SQL,
  limit: number,
  offset: number,
  onePass: boolean,
  hidden = false,
  matchedBy?: MatchedBy,
  record?: SQL,
  /** the sort segment's condition (`where` holds it otherwise), see below */
  segment?: SQL,
): SQL {
  // Written as SQL, not with the query builder: this runs on every getListItems, and the
  // builder would build the same query again on every request.
  const columns = recordColumns(record);
  const from = recordsFrom(list);
  if (onePass) {
    // A filter-first page of few matches reads them whole from the condition's index, as
    // pageIdsQuery reads their ids. The segment's condition is tested after: inside, an index
    // of the sort's column (partial, on its values being there) could serve the list's scope,
    // and a plan kept for any value took one and read every record of the list.
    const rows = matchedBy
      ? sql`select ${columns} from (${matchesInOrder(sql`*`, where, matchedBy, from)}) as ${listItems}${
          segment ? sql` where ${segment}` : sql``
        }`
      : sql`select ${columns} from ${from} where ${withSegment(where, segment)}`;
    return writtenRecords(
      sql`${rows} order by ${orderBy} ${pageWindow(limit, offset, hidden)}`,
      record,
    );
  }
  // The rows are looked up by id within the list's scope, not by (id, owner) alone: the same on
  // one table, and on a table partitioned by list it keeps the lookup in the list's partition
  // (docs/benchmarks.md, "A table partitioned by list, measured").
  return writtenRecords(
    sql`select ${columns} from ${from}
      where ${listScope(list.ownerId, list.listId, hidden)}
        and id = any(array(${pageIdsQuery(withSegment(where, segment), orderBy, limit, offset, hidden, matchedBy, from)}))
      order by ${orderBy}`,
    record,
  );
}

const withSegment = (where: SQL, segment: SQL | undefined) =>
  segment ? sql`${where} and ${segment}` : where;

/** `limit … offset …`, the two values hidden from the planner where `hidden`. */
export function pageWindow(limit: number, offset: number, hidden = false): SQL {
  return sql`limit ${plannedUnless(hidden, limit, 'int')} offset ${plannedUnless(hidden, offset, 'int')}`;
}

/** A limit no list reaches (MatchedBy's subquery). */
const ANY_ROWS = Number.MAX_SAFE_INTEGER;

/**
 * The ids of one page of one sort segment: the part of the page query that the indexes
 * serve (exported so a test can read its plan). `from`: the list's records (listRecords.ts).
 */
export function pageIdsQuery(
  where: SQL,
  orderBy: SQL,
  limit: number,
  offset: number,
  hidden = false,
  matchedBy?: MatchedBy,
  from: SQL = LIST_ITEMS,
): SQL {
  const window = pageWindow(limit, offset, hidden);
  if (!matchedBy) return sql`select id from ${from} where ${where} order by ${orderBy} ${window}`;
  const columns = sql.join(
    matchedBy.ordered.map((c) => sql.identifier(c)),
    sql`, `,
  );
  return sql`select id from (${matchesInOrder(columns, where, matchedBy, from)}) as ${listItems}
    order by ${orderBy} ${window}`;
}

/**
 * `columns` of the matches of `where`, read in the order of the condition's column: a
 * subquery with its own ORDER BY and LIMIT is planned apart. Its limit (more records than any
 * list holds, so it never cuts) is out of the planner's sight, which then expects a tenth of
 * the rows to be read: the condition's index, which gives them in that order, is priced far
 * below any other index of the list, which would have to sort the whole list first.
 */
function matchesInOrder(columns: SQL, where: SQL, matchedBy: MatchedBy, from: SQL): SQL {
  return sql`select ${columns} from ${from} where ${where}
    order by ${sql.identifier(matchedBy.column)} limit ${unplanned(ANY_ROWS, 'bigint')}`;
}

/** The list a page is of: its rows are found by id, and named by list as every index names them. */
export interface ListRef {
  ownerId: number;
  listId: string;
  /** the table its records are read from (listRecords.ts; list_items by default) */
  records?: ListRecords;
}

/** What selectPage reads: the list's rows matching `where`, in the segments' order. */
export interface PageSelection extends ListRef {
  where: SQL;
  segments: readonly SortSegment[];
  /** whether getListItems has conditions (an unfiltered page is read in one pass while shallow) */
  filtered: boolean;
  /** find the matches, then sort them, instead of walking the sort's index (pageStrategy.ts) */
  filterFirst: boolean;
  /** a filtered page's walk reads its rows as it goes (pageStrategy.ts, walkInOnePass) */
  walkInOnePass?: boolean;
  /** a filter-first page reads its few matches' rows as it finds them (pageStrategy.ts, matchesInOnePass) */
  matchesInOnePass?: boolean;
  /**
   * the page's statement goes under a name: filtered first, a shape with one plan for any
   * value (pinnedPlans.ts); walked, `where` written for a kept plan that walks the sort's
   * index (pageStrategy.ts, walksAnyValue)
   */
  named?: boolean;
  /** where named and filtered first: the one condition's index, which finds the matches */
  matchedBy?: MatchedBy;
  /**
   * The filtered total, when counted before the page: once the page reaches it there is no
   * later segment to ask (records without a value, for a page that did not fill).
   */
  total?: number;
  /** the records' JSON where Postgres writes them (recordJson.ts) */
  record?: SQL;
}

/**
 * One page over consecutive sort segments (see compileSort): the page is filled from the
 * first segment, then the next. Only when a page starts past a segment's end is that
 * segment counted (an index-only count) to know where the next one starts.
 */
export async function selectPage(
  db: Database,
  selection: PageSelection,
  limit: number,
  offset: number,
): Promise<PageRow[]> {
  const { where, segments, filtered, filterFirst, total, record } = selection;
  const inOnePass = filterFirst ? selection.matchesInOnePass : selection.walkInOnePass;
  const named = selection.named === true;
  // Kept only where it reads one table (the list's partition where list_items is partitioned:
  // listRecords.ts). A plan kept on the partitioned parent holds every partition, and Postgres
  // priced an ordered walk of each as if all sixteen would run, so it sorted the whole list
  // instead of walking the condition's index (test/integration/listBoundedPlans.test.ts).
  const send = named && (selection.records?.oneTable ?? true);
  const rows: PageRow[] = [];
  let skip = offset;
  for (const [i, segment] of segments.entries()) {
    const scoped = withSegment(where, segment.where);
    const order = filterFirst ? segment.unindexedOrderBy : segment.orderBy;
    const onePass = filtered ? inOnePass === true : skip < ONE_PASS_MAX_SKIPPED;
    const matchedBy = named ? selection.matchedBy : undefined;
    const query = pageQuery(
      selection,
      where,
      order,
      limit - rows.length,
      skip,
      onePass,
      named,
      matchedBy,
      record,
      segment.where,
    );
    const got = (await queryRowsNamedIf<StoredItemRow>(send, db, query)).map(toPageRow);
    rows.push(...got);
    if (rows.length >= limit || i === segments.length - 1) break;
    if (total !== undefined && offset + rows.length >= total) break;
    // this segment ended inside the page: the next starts at its beginning; else skip past it
    if (got.length > 0 || skip === 0) skip = 0;
    else skip = Math.max(0, skip - (await countWhere(db, scoped, recordsFrom(selection))));
  }
  return rows;
}

/** Filtered `meta.total`: a count that slot indexes can answer index-only. */
export async function countWhere(
  db: Database,
  where: SQL,
  from: SQL = LIST_ITEMS,
): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    db,
    sql`select count(*) as n from ${from} where ${where}`,
  );
  return Number(row?.n ?? 0);
}
