import type { ItemQuery } from '../filters/query.js';

/**
 * A filtered page can be read two ways, and which is cheaper depends on how many records
 * match — which Postgres can only estimate, while getListItems knows it (the total is
 * counted, advanced or remembered before the page is read):
 *
 * - walking the sort's index in order, testing each entry against the filter, until the page
 *   is full: about `(offset + limit) × records / matches` entries, each a heap visit unless
 *   the index includes every filtered column;
 * - filtering first: the filter's own indexes find every match, then the matches are sorted
 *   (a top-N sort): about `matches` index entries, never the heap.
 *
 * Postgres prices a heap visit as if the page were likely cached and picks the walk even
 * where it visits thousands of heap pages for a page of 50 (docs/records.md, "Choosing how a
 * filtered page is read"). So the walk is ruled out when filtering first reads fewer
 * entries, weighted by what a walked entry costs.
 *
 * A walk that passes few rows besides the page's own (a common value, a shallow page) reads
 * the rows as it walks, in one pass: the deferred join would test those entries from the
 * index only to look the page's rows up again by key, and plan the table twice. So does a
 * filter-first read of few matches (matchesInOnePass): reading each match's row costs less
 * than looking the page's rows up again by key once the matches are not many more than the
 * page.
 */

/**
 * Columns each order index carries besides its key (the INCLUDE lists of migrations 0014 and 0017); a walk
 * whose filter reads only these never visits the heap. A test compares this with the catalog.
 */
export const ORDER_INDEX_INCLUDES: Readonly<Record<string, readonly string[]>> = {
  t1: ['n1', 'n2', 'n3', 'd1', 'd2', 'created_at', 'updated_at'],
  t2: ['n1', 'n2', 'n3', 'd1', 'd2', 'created_at', 'updated_at'],
  t3: ['n1', 'n2', 'n3', 'd1', 'd2', 'created_at', 'updated_at'],
  n1: ['t1', 'n2', 'n3', 'd1', 'd2', 'created_at', 'updated_at'],
  n2: ['t1', 'n1', 'n3', 'd1', 'd2', 'created_at', 'updated_at'],
  n3: ['t1', 'n1', 'n2', 'd1', 'd2', 'created_at', 'updated_at'],
  d1: ['t1', 'n1', 'n2', 'n3', 'd2', 'created_at', 'updated_at'],
  d2: ['t1', 'n1', 'n2', 'n3', 'd1', 'created_at', 'updated_at'],
  created_at: ['n1', 'n2', 'n3', 'd1', 'd2', 'contact_id', 'bot_id'],
};

/**
 * What one walked entry costs against one entry read by filtering first (index-only, plus
 * its share of the sort): an entry tested from the index itself, or one that visits the heap.
 * Measured on 1,000,000 records (docs/benchmarks.md, "Filtered pages: walk or filter first").
 */
const WALK_ENTRY_COST = { covered: 1, heap: 16 } as const;

/**
 * Rows a one-pass read may visit besides the page's own before the deferred join is cheaper:
 * past it, the one pass reads each skipped row from the heap where the deferred join reads an
 * index entry. Measured on 1,000,000 records, a page of 50 sorted by another field: one pass
 * +40 % at 450 rows passed (10 %), even at 950 (5 %), half as fast at 9,950 (1 %)
 * (docs/benchmarks.md, "One pass for shallow walks"). Unfiltered pages use it for OFFSET.
 */
export const ONE_PASS_MAX_SKIPPED = 500;

/** The column the sort walks, or undefined when no index serves the order (a JSONB field). */
export function sortColumn(query: ItemQuery): string | undefined {
  if (query.sort.by !== 'field') return query.sort.by;
  return query.sort.field.slot;
}

/**
 * How a filter-first page kept under its shape's name finds its matches (pageQueries.ts): in
 * the index of its one condition's column, read in that column's order, returning the columns
 * the page's order reads. Without it the plan kept for every value could read the whole list
 * in the sort column's index instead (it includes the condition's column), and did so on a
 * table of many lists: 150–230 ms a page at 0.1 % against 0.3 ms (docs/benchmarks.md, "A kept
 * page plan that read the whole list").
 */
export interface MatchedBy {
  /** the condition's column, whose index finds the matches */
  column: string;
  /** the columns the page's order reads (the sort's column, `created_at`, `id`) */
  ordered: readonly string[];
}

/**
 * For a filter-first page of one slotted condition (a shape kept under its name,
 * pinnedPlans.ts): its condition's index, and the columns the page's order reads
 * (MatchedBy). Undefined where the order reads a field kept only in JSONB.
 */
export function matchedByOf(query: ItemQuery): MatchedBy | undefined {
  const sorted = sortColumn(query);
  const column = query.conditions.length === 1 ? query.conditions[0]!.field.slot : undefined;
  if (sorted === undefined || column === undefined) return undefined;
  return { column, ordered: [...new Set([sorted, 'created_at', 'id'])] };
}

/** The columns the filter reads; undefined for a field kept only in JSONB. */
function filterColumns(query: ItemQuery): (string | undefined)[] {
  const columns = query.conditions.map((c) => c.field.slot);
  for (const kind of ['contact', 'bot'] as const) {
    if (query.links[kind] === undefined) continue;
    // a link matches any field of that type, the ones without a slot through JSONB
    for (const f of query.fields) if (f.type === kind) columns.push(f.slot);
  }
  return columns;
}

/**
 * Whether the page is read by filtering first: true when that reads less than the walk
 * would. False when a condition is on the sort column itself (the walk starts at the
 * condition's bound, reading just the page) or no index serves the sort (Postgres sorts
 * anyway).
 */
export function filterFirst(query: ItemQuery, matches: number, records: number, end: number) {
  return matches <= filterFirstLimit(query, records, end);
}

/**
 * The most matches for which a page ending at `end` is read by filtering first; -1 where it
 * never is. Filtering first reads `matches` entries, the walk `end × records / matches`
 * weighted by what a walked entry costs (walkEntries), so the first is cheaper while
 * `matches² ≤ end × records × cost`.
 */
export function filterFirstLimit(query: ItemQuery, records: number, end: number): number {
  const walked = sortColumn(query);
  if (walked === undefined) return -1;
  const filtered = filterColumns(query);
  if (filtered.includes(walked)) return -1;
  const included = ORDER_INDEX_INCLUDES[walked] ?? [];
  const covered = filtered.every((c) => c !== undefined && included.includes(c));
  const bound = end * records * WALK_ENTRY_COST[covered ? 'covered' : 'heap'];
  // the integer square root, exact where the float's is a unit off
  let limit = Math.floor(Math.sqrt(bound));
  while (limit * limit > bound) limit--;
  while ((limit + 1) * (limit + 1) <= bound) limit++;
  return limit;
}

/**
 * The entries a walk of `walked` passes to fill a page ending at `end`: about
 * `end × records / matches`, or just `end` where a condition is on the sort column itself
 * (the walk starts at the condition's bound).
 */
function walkEntries(
  filtered: readonly (string | undefined)[],
  walked: string,
  matches: number,
  records: number,
  end: number,
): number {
  return filtered.includes(walked) ? end : (end * records) / Math.max(matches, 1);
}

/**
 * Whether a walked filtered page (filterFirst false) reads its rows in one pass: the sort has
 * an index, and the walk passes fewer than ONE_PASS_MAX_SKIPPED entries besides the page's rows.
 * A condition on the sort column itself starts the walk at its bound, so it passes the offset
 * alone.
 */
export function walkInOnePass(
  query: ItemQuery,
  matches: number,
  records: number,
  offset: number,
  limit: number,
): boolean {
  const walked = sortColumn(query);
  if (walked === undefined) return false;
  const entries = walkEntries(filterColumns(query), walked, matches, records, offset + limit);
  return entries - limit < ONE_PASS_MAX_SKIPPED;
}

/**
 * Matches per page row up to which a filter-first page reads its matches' rows as it finds
 * them (one pass) instead of their index entries, then the page's rows by key: one row read
 * a match against one key looked up a page row, about four buffers to the row's one.
 * Measured on 100,000 records, `date <` sorted by a number, a page of 50, the statement
 * alone (docs/benchmarks.md, "A page of few matches read in one pass"): 100 matches 0.62–0.77
 * ms against 0.82–0.87, 200 about even, 300 and more the deferred join ahead.
 */
export const ONE_PASS_MATCHES_PER_ROW = 2;

/** Whether a filter-first page (filterFirst true) reads its matches' rows in one pass. */
export function matchesInOnePass(matches: number, limit: number): boolean {
  return matches <= ONE_PASS_MATCHES_PER_ROW * limit;
}

/**
 * Records from which a walked page of a named shape is kept under a name of its own list
 * (walksAnyValue). Below it the page's statement is cheap either way, and a name per list
 * would crowd a connection's kept statements (MAX_SHAPE_STATEMENTS) with small lists' walks.
 */
export const WALK_KEPT_MIN_RECORDS = 10_000;

/**
 * Whether a walked page (filterFirst false) of a shape kept under its name (pinnedPlans.ts)
 * is kept too, as one plan for any value that walks the sort's index (compile.ts,
 * compileWalkWhere): an index serves the sort, no condition is on its column (there the
 * bound starts the walk, which the plan must see), and the list is large enough. Its parse
 * and planning were a third of the page's Postgres time at 1,000,000 records
 * (docs/benchmarks.md, "Walked pages kept per list").
 */
export function walksAnyValue(query: ItemQuery, records: number): boolean {
  const walked = sortColumn(query);
  if (walked === undefined || records < WALK_KEPT_MIN_RECORDS) return false;
  return !filterColumns(query).includes(walked);
}
