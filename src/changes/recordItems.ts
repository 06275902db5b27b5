import { sql, type SQL } from 'drizzle-orm';
import type { ChangeType } from './changeTypes.js';

/**
 * The change feed's rows for list items a statement wrote, as a data-modifying CTE body: run in
 * the same statement as the write, so the events commit with it or not at all. `list` names a
 * CTE returning the list's `id, owner_id, bot_id, layout` (the write's guard on the list row);
 * `items` one returning the items' `id, data, created_at, updated_at` as stored — sealed
 * values stay sealed in the feed too.
 */
export function itemChanges(type: ChangeType, list: string, items: string): SQL {
  return sql`insert into changes (account_id, type, schema_id, bot_id, item_id, layout, data)
    select l.owner_id, ${type}, l.id, l.bot_id, i.id, l.layout,
      json_build_object('data', i.data, 'created_at', i.created_at, 'updated_at', i.updated_at)
    from ${sql.identifier(list)} l, ${sql.identifier(items)} i`;
}

/** What the item writes' list guards return for itemChanges. */
export const LIST_FOR_CHANGES = sql`id, owner_id, bot_id, layout`;

/** The feed's rows for deleted items: ids only (`data` null). */
export function deletedItemChanges(list: string, items: string): SQL {
  return sql`insert into changes (account_id, type, schema_id, bot_id, item_id)
    select l.owner_id, ${'list_item.deleted' satisfies ChangeType}, l.id, l.bot_id, i.id
    from ${sql.identifier(list)} l, ${sql.identifier(items)} i`;
}
