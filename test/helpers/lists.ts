import { eq, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { Database } from '../../src/infra/db/client.js';
import { listSchemas, type StoredField } from '../../src/infra/db/schema/listSchemas.js';
import { assignSlots, type SlotColumn } from '../../src/lists/slots.js';
import type { StoredChanges } from '../../src/lists/items/storedRow.js';
import { slotsOf, storedDocument } from '../../src/lists/items/itemSlots.js';
import { queryRows } from '../../src/infra/db/client.js';
import type { Tenant } from './factories.js';

/** A field as a test writes it: slug and type, the rest defaulted as createListSchema does. */
export interface FieldSpec {
  slug: string;
  type: string;
  name?: string;
  currency?: string;
  is_required?: boolean;
  is_hidden?: boolean;
  is_encryptable?: boolean;
}

export interface TestList {
  id: string;
  ownerId: number;
  fields: StoredField[];
}

/**
 * A list inserted straight into list_schemas (owner = the tenant, in its project), with
 * slots allocated in field order as createListSchema does. Fields default to optional.
 */
export async function makeList(
  db: Database,
  tenant: Tenant,
  specs: readonly FieldSpec[],
  name = 'List',
): Promise<TestList> {
  const fields = assignSlots(
    specs.map((s) => ({
      slug: s.slug,
      name: s.name ?? s.slug,
      type: s.type,
      ...(s.type === 'money' ? { currency: s.currency ?? 'USD' } : {}),
      is_required: s.is_required ?? false,
      is_hidden: s.is_hidden ?? false,
      is_encryptable: s.is_encryptable ?? false,
    })),
  ) as StoredField[];
  const id = uuidv7();
  await db.insert(listSchemas).values({
    id,
    projectUuid: tenant.projectUuid,
    ownerId: tenant.accountId,
    name,
    fields,
  });
  return { id, ownerId: tenant.accountId, fields };
}

/** Marks a list deleted, as deleteListSchema does (records stay until reclaimed). */
export async function markListDeleted(db: Database, listId: string): Promise<void> {
  await db.update(listSchemas).set({ deletedAt: new Date() }).where(eq(listSchemas.id, listId));
}

/**
 * What a write stores when every field it sends is slotted: the values in `slots`, none left
 * for `data` (thin documents, src/lists/items/itemSlots.ts).
 */
export function slotted(
  data: Record<string, unknown>,
  slots: Partial<Record<SlotColumn, string>>,
): StoredChanges {
  return { data, kept: {}, slotted: Object.keys(data), slots };
}

/** A record's stored values, wherever they are kept: its slots or `data` (thin documents). */
export async function storedValues(db: Database, id: string) {
  const [row] = await queryRows<Record<string, unknown> & { data: object; fields: StoredField[] }>(
    db,
    sql`select i.*, s.fields from list_items i
        join list_schemas s on s.owner_id = i.owner_id and s.id = i.schema_id where i.id = ${id}`,
  );
  return row && storedDocument(row.fields, row.data as Record<string, unknown>, slotsOf(row));
}

/** The raw stored row of a record, as Postgres holds it. */
export async function rawRecord(db: Database, id: string) {
  const result = (await db.execute(
    sql`select row_to_json(i)::text as json, i.* from list_items i where id = ${id}`,
  )) as unknown as { rows: Record<string, unknown>[] };
  return result.rows[0];
}

export async function itemCount(db: Database, listId: string): Promise<number> {
  const [row] = await db
    .select({ n: listSchemas.itemCount })
    .from(listSchemas)
    .where(eq(listSchemas.id, listId));
  return row?.n ?? -1;
}
