import { sql, type SQL } from 'drizzle-orm';
import type { SqlKind } from '../field-types/fieldType.js';
import { fieldTypeOf } from '../field-types/fieldTypeRegistry.js';
import { fieldExpression, operandParameter } from './columns.js';
import { hasLinks, type Condition, type ItemQuery, type Sort } from './query.js';
import { listScope, listScopeWritten } from '../items/listScope.js';
import { compileLike } from './likeCondition.js';
import { isSlotColumn } from '../slots.js';

/**
 * The only place filters and sorts become SQL. Every value is a bound parameter; column
 * names come from the list's stored slots (checked against the fixed slot set) and
 * operators from the fixed map below. SQL's NULL semantics give the documented rule that a
 * record with no value never matches a condition on that field, `!=` and `not like` too.
 */
const COMPARE: Record<'=' | '!=' | '<' | '<=' | '>' | '>=', string> = {
  '=': '=',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

/** The day after, as Postgres reads it (toISOString would write year 10000 as +010000). */
function nextDay(day: string): string {
  const d = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const year = String(d.getUTCFullYear()).padStart(4, '0');
  return `${year}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T00:00:00.000Z`;
}

/** Where a day starts, as Postgres reads it. */
function dayStart(day: string): string {
  return `${day}T00:00:00.000Z`;
}

/** The comparison a range of days makes: which edge of the operand's day, compared how. */
const DAY_RANGE: Record<RangeOperator, [RangeOperator, 'start' | 'end']> = {
  '<': ['<', 'start'],
  '<=': ['<', 'end'],
  '>': ['>=', 'end'],
  '>=': ['>=', 'start'],
};

/** A range of days as one comparison with an edge of the operand's day. */
function dayRange(op: RangeOperator, day: string): { op: RangeOperator; edge: SQL } {
  const [compare, edge] = DAY_RANGE[op];
  return {
    op: compare,
    edge: sql`${edge === 'start' ? dayStart(day) : nextDay(day)}::timestamptz`,
  };
}

/** getListItems: a date filter compares UTC days, so each day is the range [day, next day). */
function dayCondition(
  column: SQL,
  op: Condition['op'],
  day: string,
  bound: (operand: SQL) => SQL,
): SQL {
  if (isRangeOperator(op)) {
    const range = dayRange(op, day);
    return sql`${column} ${sql.raw(range.op)} ${bound(range.edge)}`;
  }
  const start = bound(sql`${dayStart(day)}::timestamptz`);
  const end = bound(sql`${nextDay(day)}::timestamptz`);
  switch (op) {
    case '=':
      return sql`(${column} >= ${start} and ${column} < ${end})`;
    case '!=':
      return sql`(${column} < ${start} or ${column} >= ${end})`;
    default:
      throw new Error(`operator ${op} is not allowed on dates`);
  }
}

/**
 * What of a WHERE's values Postgres does not read while it plans: nothing, the range bounds,
 * or every value (the list's owner and each operand; the list's key stays a parameter, which
 * names its partition: listScope.ts). Behind a subquery a value is
 * estimated as any value would be (infra/db/unplannedValue.ts).
 *
 * `bounds` where the read's plan is the same for every bound (items/pinnedPlans.ts): a walked
 * page then follows the order it is written in (pageStrategy.ts decides it), and the kept plan
 * of a named statement is not dearer than the ones made for a bound. `all` for the statements
 * kept under their shape's name on Postgres, so that no value they carry makes the plans made
 * for it look cheaper than the kept one; never on Citus, which routes a statement by its owner.
 */
export type Hiding = 'none' | 'bounds' | 'all';

export type RangeOperator = '<' | '<=' | '>' | '>=';

/** Each range's complement on the same field: a record with a value matches one of the two. */
export const COMPLEMENT: Readonly<Record<RangeOperator, RangeOperator>> = {
  '<': '>=',
  '<=': '>',
  '>': '<=',
  '>=': '<',
};

export function isRangeOperator(op: string): op is RangeOperator {
  return op in COMPLEMENT;
}

function boundOf(c: Condition, hiding: Hiding): (operand: SQL) => SQL {
  const hidden = hiding === 'all' || (hiding === 'bounds' && isRangeOperator(c.op));
  return hidden ? (operand) => sql`(select ${operand})` : (operand) => operand;
}

export function compileCondition(c: Condition, hiding: Hiding = 'none'): SQL {
  const column = fieldExpression(c.field, c.kind);
  const bound = boundOf(c, hiding);
  if (c.kind === 'date') return dayCondition(column, c.op, c.operand, bound);
  if (c.op === 'like' || c.op === 'not like') {
    const like = compileLike(column, c.operand, isSlotColumn(c.field.slot));
    return c.op === 'like' ? like : sql`not ${like}`;
  }
  const operand = bound(operandParameter(c.field, c.kind, c.operand));
  return sql`${column} ${sql.raw(COMPARE[c.op])} ${operand}`;
}

/** A range condition as the one comparison it compiles to: `column op bound`. */
export interface RangeComparison {
  column: SQL;
  op: RangeOperator;
  bound: SQL;
  /**
   * `fn(operand)` computed once, the operand out of the planner's sight where `bound` is: the
   * function inside the hiding subquery, where Postgres can inline it (given the subquery as
   * its argument it cannot, and calls it as a function: 0.35 ms a call in a kept plan).
   */
  ofBound: (fn: (operand: SQL) => SQL) => SQL;
}

/**
 * A range condition on a number or a date as its one comparison (a day's range compares with
 * one edge of the day), its bound hidden as `hiding` says; undefined for other conditions.
 */
export function rangeComparison(c: Condition, hiding: Hiding): RangeComparison | undefined {
  if (!isRangeOperator(c.op) || c.kind === 'text') return undefined;
  const column = fieldExpression(c.field, c.kind);
  const hide = boundOf(c, hiding);
  const { op, edge: operand } =
    c.kind === 'date'
      ? dayRange(c.op, c.operand)
      : { op: c.op, edge: operandParameter(c.field, c.kind, c.operand) };
  return { column, op, bound: hide(operand), ofBound: (fn) => hide(fn(operand)) };
}

/** getListItems `contact_id` / `bot_id`: linked through any (unencrypted) field of that type. */
function compileLink(query: ItemQuery, kind: 'contact' | 'bot', id: number): SQL {
  const matches = query.fields
    .filter((f) => !f.is_encryptable && fieldTypeOf(f).references === kind)
    .map(
      (f) => sql`${fieldExpression(f, 'numeric')} = ${operandParameter(f, 'numeric', String(id))}`,
    );
  if (matches.length === 0) return sql`false`;
  return matches.length === 1 ? matches[0]! : sql`(${sql.join(matches, sql` or `)})`;
}

/** The query's WHERE, with its values hidden from the planner as `hiding` says. */
export function compileWhere(query: ItemQuery, hiding: Hiding = 'none'): SQL {
  const parts: SQL[] = [listScope(query.ownerId, query.listId, hiding === 'all')];
  for (const c of query.conditions) parts.push(compileCondition(c, hiding));
  return withLinks(query, parts);
}

/** `parts` and the query's contact and bot links, joined by `and`. */
function withLinks(query: ItemQuery, parts: SQL[]): SQL {
  if (query.links.contact !== undefined)
    parts.push(compileLink(query, 'contact', query.links.contact));
  if (query.links.bot !== undefined) parts.push(compileLink(query, 'bot', query.links.bot));
  return sql.join(parts, sql` and `);
}

/**
 * The WHERE of a walked page kept under a name for its list (pageQueries.ts): the list's id
 * written in (listScopeWritten), every operand hidden, and each condition out of every
 * index's sight, so that the plan kept for any value walks the sort's index as the page
 * strategy chose (pageStrategy.ts, walksAnyValue) instead of finding the matches in the
 * condition's own index and sorting them. `coalesce(…, false)`, not `(…) is true`: Postgres
 * priced an `is true` at one in the column's distinct values and sorted; a coalesce it
 * prices at a fixed share, the same for any value.
 */
export function compileWalkWhere(query: ItemQuery): SQL {
  const parts = [listScopeWritten(query.ownerId, query.listId)];
  for (const c of query.conditions) parts.push(sql`coalesce(${compileCondition(c, 'all')}, false)`);
  return withLinks(query, parts);
}

/** One stretch of a sort order: the rows it covers (within the query) and their order. */
export interface SortSegment {
  where?: SQL;
  orderBy: SQL;
  /**
   * The same order written so that no index supplies it: Postgres then finds the rows by the
   * filter and sorts them (the page strategy, src/lists/items/pageStrategy.ts, decides when).
   */
  unindexedOrderBy: SQL;
}

/**
 * The value as an expression no index is built on, ordering exactly like it: Postgres does not
 * fold `+ 0`, `|| ''` or `+ interval '0 s'` away, so it cannot match them to an index's key.
 */
const UNINDEXED: Record<SqlKind, (value: SQL) => SQL> = {
  text: (value) => sql`(${value} || '')`,
  numeric: (value) => sql`(${value} + 0)`,
  bool: (value) => sql`(${value} + 0)`,
  date: (value) => sql`(${value} + interval '0 s')`,
  datetime: (value) => sql`(${value} + interval '0 s')`,
};

/**
 * Typed order (numbers numerically, dates chronologically, strings as text in the
 * database collation, false before true) with `id` as the unique tie-breaker, in the
 * sort's direction. Records without a value come last in both directions, in insertion
 * order (created_at, id in the sort's direction). They are a second segment paged after the
 * first: the slot indexes are partial (`WHERE slot IS NOT NULL`), so only a query that
 * excludes missing values can walk them in order instead of sorting the whole list.
 */
export function compileSort(sort: Sort): SortSegment[] {
  const dir = sql.raw(sort.direction === 'desc' ? 'desc' : 'asc');
  const id = sql.identifier('id');
  const by = (value: SQL) => sql`${value} ${dir}, ${id} ${dir}`;
  const createdAt = sql`${sql.identifier('created_at')}`;
  const inserted = { orderBy: by(createdAt), unindexedOrderBy: by(UNINDEXED.datetime(createdAt)) };
  if (sort.by !== 'field') {
    const column = sql`${sql.identifier(sort.by)}`;
    return [{ orderBy: by(column), unindexedOrderBy: by(UNINDEXED.datetime(column)) }];
  }
  const value = fieldExpression(sort.field, sort.kind);
  return [
    {
      where: sql`${value} is not null`,
      orderBy: by(value),
      unindexedOrderBy: by(UNINDEXED[sort.kind](value)),
    },
    { where: sql`${value} is null`, ...inserted },
  ];
}

/** Whether `meta.total` needs a count: with no condition the list's counter is exact. */
export function isFiltered(query: ItemQuery): boolean {
  return query.conditions.length > 0 || hasLinks(query);
}
