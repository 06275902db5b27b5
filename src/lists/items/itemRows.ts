import { and, eq, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { queryRows, type Database } from '../../infra/db/client.js';
import { listItems } from '../../infra/db/schema/listItems.js';
import { listSchemas, type StoredField } from '../../infra/db/schema/listSchemas.js';
import { domainErrors } from '../../shared/errors.js';
import { findLiveList } from '../schemas/repository.js';
import type { ItemRow } from './foundItem.js';
import { type SlotColumn, slotProperties, slotSqlType } from '../slots.js';
import type { StoredChanges } from './storedRow.js';

/** The list's fields changed between validation and insert; the caller validates again. */
export class FieldsChanged extends Error {}

const returning = {
  id: listItems.id,
  data: listItems.data,
  createdAt: listItems.createdAt,
  updatedAt: listItems.updatedAt,
};

/**
 * Inserts a record and bumps the list's counter in ONE statement (atomic, one round trip
 * and one commit: the counter costs no extra transaction). The counter update is guarded
 * by the fields the values were validated against, so a concurrent field change (slots may
 * have moved) or list delete inserts nothing: then a deleted list is a 404 and changed
 * fields a FieldsChanged, which the caller answers by validating again.
 */
export async function insertItemRow(
  db: Database,
  listId: string,
  fieldsSeen: readonly StoredField[],
  changes: StoredChanges,
  now: Date,
): Promise<ItemRow> {
  const id = uuidv7();
  const slots = Object.entries(changes.slots) as [SlotColumn, string][];
  const columns = slots.map(([slot]) => sql`, ${sql.identifier(slot)}`);
  const values = slots.map(([slot, text]) => sql`, ${text}::${sql.raw(slotSqlType(slot))}`);
  const stamp = now.toISOString();
  const inserted = await queryRows<{ id: string }>(
    db,
    sql`with bumped as (
          update ${listSchemas} set item_count = item_count + 1
          where id = ${listId} and deleted_at is null and fields = ${JSON.stringify(fieldsSeen)}::jsonb
          returning id)
        insert into ${listItems} (id, schema_id, data, created_at, updated_at${sql.join(columns)})
        select ${id}, bumped.id, ${JSON.stringify(changes.data)}::jsonb,
               ${stamp}::timestamptz, ${stamp}::timestamptz${sql.join(values)}
        from bumped
        returning id`,
  );
  if (inserted.length === 0) {
    if (!(await findLiveList(db, listId))) throw domainErrors.listNotFound();
    throw new FieldsChanged();
  }
  return { id, data: changes.data, createdAt: now, updatedAt: now };
}

/**
 * Merges the sent fields into `data` and their slots in one statement, so concurrent
 * updates of different fields both survive. Guarded like the insert: nothing is written
 * (undefined) when the record is gone, its list was deleted, or the list's fields changed
 * since validation; the caller tells those apart.
 */
export async function updateItemRow(
  db: Database,
  id: string,
  fieldsSeen: readonly StoredField[],
  changes: StoredChanges,
  now: Date,
): Promise<ItemRow | undefined> {
  const [row] = await db
    .update(listItems)
    .set({
      data: sql`${listItems.data} || ${JSON.stringify(changes.data)}::jsonb`,
      ...slotProperties(changes.slots),
      updatedAt: now,
    })
    .where(
      and(
        eq(listItems.id, id),
        sql`exists (select 1 from ${listSchemas} where ${listSchemas.id} = ${listItems.schemaId}
            and ${listSchemas.deletedAt} is null and ${listSchemas.fields} = ${JSON.stringify(fieldsSeen)}::jsonb)`,
      ),
    )
    .returning(returning);
  return row;
}

/** Deletes a record and drops the list's counter in one transaction; false when already gone. */
export async function deleteItemRow(db: Database, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(listItems)
      .where(eq(listItems.id, id))
      .returning({ schemaId: listItems.schemaId });
    if (!gone) return false;
    await tx
      .update(listSchemas)
      .set({ itemCount: sql`greatest(${listSchemas.itemCount} - 1, 0)` })
      .where(eq(listSchemas.id, gone.schemaId));
    return true;
  });
}
