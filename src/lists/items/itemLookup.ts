import { sql } from 'drizzle-orm';
import type { Caller } from '../../admission/caller.js';
import type { Database } from '../../infra/db/client.js';
import { onePerDatabase } from '../../infra/db/onePerDatabase.js';
import { listItems } from '../../infra/db/schema/listItems.js';
import { listSchemas, type StoredField } from '../../infra/db/schema/listSchemas.js';
import { domainErrors } from '../../shared/errors.js';
import { isLookupableId } from '../schemas/repository.js';

export interface ItemRow {
  id: string;
  data: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface FoundItem {
  record: ItemRow;
  schemaId: string;
  ownerId: number;
  fields: StoredField[];
}

const recordById = onePerDatabase((db) =>
  db
    .select({
      id: listItems.id,
      data: listItems.data,
      createdAt: listItems.createdAt,
      updatedAt: listItems.updatedAt,
      schemaId: listItems.schemaId,
      ownerId: listSchemas.ownerId,
      fields: listSchemas.fields,
    })
    .from(listItems)
    .innerJoin(listSchemas, sql`${listSchemas.id} = ${listItems.schemaId}`)
    // spec 4.9: a record whose list was deleted is gone too.
    .where(sql`${listItems.id} = ${sql.placeholder('id')} and ${listSchemas.deletedAt} is null`)
    .prepare('lk_record_by_id'),
);

export async function findItem(db: Database, id: string): Promise<FoundItem | undefined> {
  if (!isLookupableId(id)) return undefined;
  const [row] = await recordById(db).execute({ id });
  if (!row) return undefined;
  const { schemaId, ownerId, fields, ...record } = row;
  return { record, schemaId, ownerId, fields };
}

/** spec 4.9/4.10: missing record (or list) → 404 with errors.item_id; another account's → 403. */
export async function requireOwnItem(db: Database, caller: Caller, id: string): Promise<FoundItem> {
  const found = await findItem(db, id);
  if (!found) throw domainErrors.itemNotFound();
  if (found.ownerId !== caller.accountId) throw domainErrors.forbidden();
  return found;
}
