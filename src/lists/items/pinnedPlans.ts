import { hasLinks, type ItemQuery } from '../filters/query.js';
import { isSlotColumn } from '../slots.js';

/**
 * Whether a read's count and its filter-first page (pageStrategy.ts) have one plan whatever
 * the filter's value, so that their statements may go under a name and keep a plan
 * (infra/db/shapeStatements.ts): one condition comparing a slot column (its own indexes, no
 * other to choose between), by equality or a range, with no contact or bot link. Not `!=`
 * and `like` (a pattern's prefix becomes an index range only when Postgres sees the value),
 * nor a field kept in the JSONB document. A walked page of such a shape is named per list,
 * written so that the plan kept walks the sort's index (pageStrategy.ts, walksAnyValue): the
 * count decides between the walk and filtering first, not the planner.
 */
export function hasPinnedPlan(query: ItemQuery): boolean {
  if (hasLinks(query) || query.conditions.length !== 1) return false;
  const [condition] = query.conditions;
  return isSlotColumn(condition!.field.slot) && PINNED_OPERATORS.has(condition!.op);
}

const PINNED_OPERATORS: ReadonlySet<string> = new Set(['=', '<', '<=', '>', '>=']);
