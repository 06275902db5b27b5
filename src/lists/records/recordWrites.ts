import { and, eq, isNull, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { Database } from '../../db/client.js';
import { listItems } from '../../db/schema/listItems.js';
import { listSchemas, type StoredField } from '../../db/schema/listSchemas.js';
import { errors } from '../../http/errors.js';
import type { RecordRow } from './recordLookup.js';
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
 * Inserts a record and bumps the list's counter in one transaction. The counter update
 * also locks the list row, so a concurrent field change or list delete is seen here:
 * a deleted list is a 404, changed fields a FieldsChanged (validated against stale slots).
 */
export async function insertRecord(
  db: Database,
  listId: string,
  fieldsSeen: readonly StoredField[],
  changes: StoredChanges,
  now: Date,
): Promise<RecordRow> {
  return db.transaction(async (tx) => {
    const [list] = await tx
      .update(listSchemas)
      .set({ itemCount: sql`${listSchemas.itemCount} + 1` })
      .where(and(eq(listSchemas.id, listId), isNull(listSchemas.deletedAt)))
      .returning({ fields: listSchemas.fields });
    if (!list) throw errors.listNotFound();
    if (JSON.stringify(list.fields) !== JSON.stringify(fieldsSeen)) throw new FieldsChanged();
    const [row] = await tx
      .insert(listItems)
      .values({
        id: uuidv7(),
        schemaId: listId,
        data: changes.data,
        ...changes.slots,
        createdAt: now,
        updatedAt: now,
      })
      .returning(returning);
    return row!;
  });
}

/**
 * Merges the sent fields into `data` and their slots in one statement, so concurrent
 * updates of different fields both survive. Undefined when the record (or its list) is gone.
 */
export async function updateRecord(
  db: Database,
  id: string,
  changes: StoredChanges,
  now: Date,
): Promise<RecordRow | undefined> {
  const [row] = await db
    .update(listItems)
    .set({
      data: sql`${listItems.data} || ${JSON.stringify(changes.data)}::jsonb`,
      ...changes.slots,
      updatedAt: now,
    })
    .where(
      and(
        eq(listItems.id, id),
        sql`exists (select 1 from ${listSchemas} where ${listSchemas.id} = ${listItems.schemaId} and ${listSchemas.deletedAt} is null)`,
      ),
    )
    .returning(returning);
  return row;
}

/** Deletes a record and drops the list's counter in one transaction; false when already gone. */
export async function deleteRecord(db: Database, id: string): Promise<boolean> {
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
