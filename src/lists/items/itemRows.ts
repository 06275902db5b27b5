import { sql, type SQL } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { queryRows, type Database } from '../../infra/db/client.js';
import { queryShapeRows } from '../../infra/db/shapeStatements.js';
import { onCitus } from '../../infra/db/engine.js';
import { listItems } from '../../infra/db/schema/listItems.js';
import { listSchemas, type StoredField } from '../../infra/db/schema/listSchemas.js';
import { domainErrors } from '../../shared/domainErrors.js';
import { nextVersion } from '../listVersion.js';
import { findLiveList } from '../schemas/listSchemaRepository.js';
import { toItemRow, type ItemRow, type StoredItemRow } from './foundItem.js';
import { type SlotColumn, slotSqlType } from '../slots.js';
import type { StoredChanges } from './storedRow.js';
import type { NewItem } from './newItem.js';
import { keptData, slotColumnsSql } from './itemSlots.js';
import { listKeyInsert } from './listKeyInsert.js';
import {
  STORED_JSON_COLUMNS,
  storedJsonValues,
  updatedRecord,
  type UpdatedValues,
} from './storedJson.js';
import { recordInList } from './listScope.js';
import {
  deletedItemChanges,
  itemChanges,
  LIST_FOR_CHANGES,
  previousRow,
} from '../../changes/recordItems.js';
import {
  deleteItemRowOnCitus,
  insertItemRowOnCitus,
  updateItemRowOnCitus,
} from './citusItemRows.js';

/** The list's fields changed between validation and insert; the caller validates again. */
export class FieldsChanged extends Error {}

/**
 * Inserts a record and bumps the list's counter in ONE statement (atomic, one round trip
 * and one commit: the counter costs no extra transaction). The counter update is guarded
 * by the fields the values were validated against, so a concurrent field change (slots may
 * have moved) or list delete inserts nothing: then a deleted list is a 404 and changed
 * fields a FieldsChanged, which the caller answers by validating again.
 */
export async function insertItemRow(db: Database, item: NewItem): Promise<ItemRow> {
  const { ownerId, listId, fieldsSeen, changes, now, id = uuidv7(), also, stored } = item;
  const written = { id, data: changes.data, createdAt: now, updatedAt: now };
  const guard = listGuard(ownerId, listId, fieldsSeen);
  const slots = slotValues(changes);
  if (await onCitus(db)) {
    if (!(await insertItemRowOnCitus(db, { ...item, id }, guard, slots)))
      await refuseInsert(db, ownerId, listId);
    return written;
  }
  const stamp = now.toISOString();
  const key = await listKeyInsert(db, listId);
  const inserted = await queryRows<{ id: string }>(
    db,
    sql`with bumped as (
          update ${listSchemas} set item_count = item_count + 1, version = ${nextVersion}
          where ${guard}
          returning ${LIST_FOR_CHANGES})
        , inserted as (
        insert into ${listItems} (id, schema_id, owner_id, data, created_at, updated_at${key.column}${sql.join(slots.columns)}${STORED_JSON_COLUMNS})
        select ${id}, bumped.id, bumped.owner_id, ${JSON.stringify(changes.kept)}::jsonb,
               ${stamp}::timestamptz, ${stamp}::timestamptz${key.value}${sql.join(slots.values)}${storedJsonValues(stored)}
        from bumped
        returning id, data, created_at, updated_at${slotColumnsSql()})
        , feed as (${itemChanges('list_item.created', 'bumped', 'inserted')})
        ${also ? sql`, also as (${also})` : sql``}
        select id from inserted`,
  );
  if (inserted.length === 0) await refuseInsert(db, ownerId, listId);
  return written;
}

/** The slots a write sets, each with its value as its column's type. */
function sentSlots(changes: StoredChanges): [SlotColumn, SQL][] {
  return (Object.entries(changes.slots) as [SlotColumn, string][]).map(([slot, text]) => [
    slot,
    sql`${text}::${sql.raw(slotSqlType(slot))}`,
  ]);
}

/** The slots a record sets, as `, column` and `, value::type` lists for an INSERT. */
export function slotValues(changes: StoredChanges): { columns: SQL[]; values: SQL[] } {
  const slots = sentSlots(changes);
  return {
    columns: slots.map(([slot]) => sql`, ${sql.identifier(slot)}`),
    values: slots.map(([, value]) => sql`, ${value}`),
  };
}

/** Why a guarded insert wrote nothing: the list is gone (404), or its fields changed. */
export async function refuseInsert(db: Database, ownerId: number, listId: string): Promise<never> {
  if (!(await findLiveList(db, ownerId, listId))) throw domainErrors.listNotFound();
  throw new FieldsChanged();
}

/** The list a write was validated against: live, with the same fields. */
export function listGuard(
  ownerId: number,
  listId: string,
  fieldsSeen: readonly StoredField[],
): SQL {
  return sql`owner_id = ${ownerId} and id = ${listId} and deleted_at is null
    and fields = ${JSON.stringify(fieldsSeen)}::jsonb`;
}

/** A record's values after its update: the sent fields merged into `data`, their slots set. */
function updatedValues(row: string, changes: StoredChanges, now: Date): UpdatedValues {
  return {
    row,
    data: keptData(sql`${sql.raw(row)}.data`, changes),
    updatedAt: sql`${now.toISOString()}::timestamptz`,
    slots: new Map(sentSlots(changes)),
  };
}

/**
 * Merges the sent fields into `data` and their slots in one statement, so concurrent
 * updates of different fields both survive. Guarded like the insert: nothing is written
 * (undefined) when the record is gone, its list was deleted, or the list's fields changed
 * since validation; the caller tells those apart.
 */
export async function updateItemRow(
  db: Database,
  ownerId: number,
  /** the record's list, as its look-up found it (a record never changes lists) */
  listId: string,
  id: string,
  fieldsSeen: readonly StoredField[],
  changes: StoredChanges,
  now: Date,
): Promise<ItemRow | undefined> {
  const values = updatedValues('li', changes, now);
  if (await onCitus(db)) {
    const guard = listGuard(ownerId, listId, fieldsSeen);
    return updateItemRowOnCitus(db, ownerId, listId, id, guard, fieldsSeen, values);
  }
  // The guard is also the list's version bump: one statement, one snapshot. The record is
  // found by its primary key alone, in its list's partition (recordInList). Sent under its
  // shape's name: its plan is the same for any value, and planning it every time (the record's
  // JSON expression in its SET) cost a fifth of a list's update rate (docs/benchmarks.md,
  // "Updates store their JSON").
  const [row] = await queryShapeRows<StoredItemRow>(
    db,
    sql`with bumped as (
          update ${listSchemas} set version = ${nextVersion}
          where ${listGuard(ownerId, listId, fieldsSeen)}
          returning ${LIST_FOR_CHANGES}),
        before as (
          select r.id, ${previousRow('r')} as previous from ${listItems} r
          where ${recordInList('r', ownerId, listId, sql`${id}`)} and exists (select 1 from bumped)
          for update),
        updated as (
          update ${listItems} li
            set ${updatedRecord(fieldsSeen, values, sql`(select layout from bumped)`)}
          from before
          where ${recordInList('li', ownerId, listId, sql`before.id`)}
          returning li.id, li.data, li.created_at, li.updated_at${slotColumnsSql('li')},
            before.previous),
        feed as (${itemChanges('list_item.updated', 'bumped', 'updated')})
        select id, data, created_at, updated_at${slotColumnsSql()} from updated`,
  );
  return row && toItemRow(row);
}

/**
 * Deletes a record, drops the list's counter and records the change; false when already gone.
 * The list's row is locked first, as every other item write does (its guard takes it before
 * the item's row): taking the item's row first could deadlock against a batch update.
 */
export async function deleteItemRow(
  db: Database,
  ownerId: number,
  /** the record's list, as its look-up found it (see updateItemRow) */
  listId: string,
  id: string,
): Promise<boolean> {
  if (await onCitus(db)) return deleteItemRowOnCitus(db, ownerId, listId, id);
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select 1 from ${listSchemas} where owner_id = ${ownerId} and id = ${listId}
          for no key update`,
    );
    const [row] = await queryRows<{ n: number }>(
      tx,
      // the whole row is returned and turned into JSON after: Citus refuses functions that
      // are not immutable (to_jsonb) in RETURNING
      sql`with deleted as (
            delete from ${listItems} r where ${recordInList('r', ownerId, listId, sql`${id}`)}
            returning r.id, r.schema_id, r as row),
          gone as (select d.id, d.schema_id, ${previousRow('d', 'row')} as previous from deleted d),
          bumped as (
            update ${listSchemas} set item_count = greatest(item_count - 1, 0), version = ${nextVersion}
            where owner_id = ${ownerId} and id = (select schema_id from gone)
            returning ${LIST_FOR_CHANGES}),
          feed as (${deletedItemChanges('bumped', 'gone')})
          select count(*)::int as n from gone`,
    );
    return (row?.n ?? 0) > 0;
  });
}
