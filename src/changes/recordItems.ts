import { sql, type SQL } from 'drizzle-orm';
import type { ChangeType } from './changeTypes.js';
import { slotsJson } from '../lists/items/itemSlots.js';
import { FEED_TXID } from './feedStamp.js';
import { ownerConstant } from '../infra/db/ownerConstant.js';

/**
 * The change feed's rows for list items a statement wrote, as a data-modifying CTE body: run in
 * the same statement as the write, so the events commit with it or not at all. `list` names a
 * CTE returning the list's `id, owner_id, bot_id, layout` (the write's guard on the list row);
 * `items` one returning the items' `id, data, created_at, updated_at` and slot columns as
 * stored (the feed keeps both: itemSlots.ts) — sealed values stay sealed in the feed too.
 */
export function itemChanges(
  type: Extract<ChangeType, 'list_item.created' | 'list_item.updated'>,
  list: string,
  items: string,
): SQL {
  // an update's `items` also returns `previous`, the row before it (previousRow)
  const previous = type === 'list_item.updated' ? sql`i.previous` : sql`null::jsonb`;
  return sql`insert into changes (account_id, type, schema_id, bot_id, item_id, layout, data, previous, txid)
    select l.owner_id, ${type}, l.id, l.bot_id, i.id, l.layout,
      json_build_object('data', i.data, 'slots', ${slotsJson('i')}, 'created_at', i.created_at,
        'updated_at', i.updated_at),
      ${previous}, ${FEED_TXID}
    from ${sql.identifier(list)} l, ${sql.identifier(items)} i`;
}

/**
 * A list_items row as the feed keeps it in `previous` (see the changes table), from a query
 * whose list_items row is named `row` (or is its column `column`, a whole row a statement
 * returned): everything a compiled filter reads. Without the record's stored JSON
 * (items/storedJson.ts): no filter reads it, and it would double what the feed keeps.
 */
export const previousRow = (row: string, column?: string): SQL =>
  sql`(to_jsonb(${column ? sql`${sql.identifier(row)}.${sql.identifier(column)}` : sql.identifier(row)}) - 'record_json' - 'record_layout')`;

/** What the item writes' list guards return for itemChanges. */
export const LIST_FOR_CHANGES = sql`id, owner_id, bot_id, layout`;

/**
 * The feed's rows for deleted items: ids (`data` null) and the row as it was (`items` returns
 * it as `previous`, see previousRow).
 */
export function deletedItemChanges(list: string, items: string): SQL {
  return sql`insert into changes (account_id, type, schema_id, bot_id, item_id, previous, txid)
    select l.owner_id, ${'list_item.deleted' satisfies ChangeType}, l.id, l.bot_id, i.id, i.previous,
      ${FEED_TXID}
    from ${sql.identifier(list)} l, ${sql.identifier(items)} i`;
}

/** A record whose change is recorded by itemChangesAfter; `previous` as the write returned it. */
export interface WrittenItem {
  id: string;
  /** the row before an update or a delete, as JSON text (previousRow cast to text) */
  previous?: string;
}

/**
 * The feed's rows for records a transaction wrote, as a statement of its own, for Citus
 * (infra/db/engine.ts), which runs no INSERT in a CTE on one shard. The list's row, and the
 * records' rows for a create or an update, are read on the list's shard after the write, so
 * the events show what was written, as itemChanges does; what is gone by then — the rows
 * before an update or a delete — comes as the text the write returned. One event per record,
 * in the order given.
 */
export function itemChangesAfter(
  type: Extract<ChangeType, 'list_item.created' | 'list_item.updated' | 'list_item.deleted'>,
  ownerId: number,
  listId: string,
  items: readonly WrittenItem[],
): SQL {
  const written = JSON.stringify(items.map(({ id, previous }, n) => ({ id, previous, n })));
  const source = sql`jsonb_to_recordset(${written}::jsonb) as p(id text, previous text, n int)`;
  const list = sql`l.owner_id = ${ownerConstant(ownerId)} and l.id = ${listId}`;
  if (type === 'list_item.deleted') {
    return sql`insert into changes (account_id, type, schema_id, bot_id, item_id, previous, txid)
      select l.owner_id, ${type}, l.id, l.bot_id, p.id, p.previous::jsonb, ${FEED_TXID}
      from list_schemas l, ${source}
      where ${list} order by p.n`;
  }
  return sql`insert into changes (account_id, type, schema_id, bot_id, item_id, layout, data, previous, txid)
    select l.owner_id, ${type}, l.id, l.bot_id, i.id, l.layout,
      json_build_object('data', i.data, 'slots', ${slotsJson('i')}, 'created_at', i.created_at,
        'updated_at', i.updated_at),
      p.previous::jsonb, ${FEED_TXID}
    from list_schemas l, ${source}
    join list_items i on i.owner_id = ${ownerConstant(ownerId)} and i.id = p.id
    where ${list} order by p.n`;
}
