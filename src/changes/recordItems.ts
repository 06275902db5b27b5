import { sql, type SQL } from 'drizzle-orm';
import type { ChangeType } from './changeTypes.js';

/**
 * The change feed's rows for list items a statement wrote, as a data-modifying CTE body: run in
 * the same statement as the write, so the events commit with it or not at all. `list` names a
 * CTE returning the list's `id, owner_id, bot_id, layout` (the write's guard on the list row);
 * `items` one returning the items' `id, data, created_at, updated_at` as stored — sealed
 * values stay sealed in the feed too.
 */
export function itemChanges(
  type: Extract<ChangeType, 'list_item.created' | 'list_item.updated'>,
  list: string,
  items: string,
): SQL {
  // an update's `items` also returns `previous`, the row before it (previousRow)
  const previous = type === 'list_item.updated' ? sql`i.previous` : sql`null::jsonb`;
  return sql`insert into changes (account_id, type, schema_id, bot_id, item_id, layout, data, previous)
    select l.owner_id, ${type}, l.id, l.bot_id, i.id, l.layout,
      json_build_object('data', i.data, 'created_at', i.created_at, 'updated_at', i.updated_at),
      ${previous}
    from ${sql.identifier(list)} l, ${sql.identifier(items)} i`;
}

/**
 * A list_items row as the feed keeps it in `previous` (see the changes table), from a query
 * whose list_items row is named `row` (or is its column `column`, a whole row a statement
 * returned): everything a compiled filter reads.
 */
export const previousRow = (row: string, column?: string): SQL =>
  column
    ? sql`to_jsonb(${sql.identifier(row)}.${sql.identifier(column)})`
    : sql`to_jsonb(${sql.identifier(row)})`;

/** What the item writes' list guards return for itemChanges. */
export const LIST_FOR_CHANGES = sql`id, owner_id, bot_id, layout`;

/**
 * The feed's rows for deleted items: ids (`data` null) and the row as it was (`items` returns
 * it as `previous`, see previousRow).
 */
export function deletedItemChanges(list: string, items: string): SQL {
  return sql`insert into changes (account_id, type, schema_id, bot_id, item_id, previous)
    select l.owner_id, ${'list_item.deleted' satisfies ChangeType}, l.id, l.bot_id, i.id, i.previous
    from ${sql.identifier(list)} l, ${sql.identifier(items)} i`;
}
