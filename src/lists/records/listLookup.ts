import { eq, sql } from 'drizzle-orm';
import type { Caller } from '../../auth/caller.js';
import type { Database } from '../../db/client.js';
import { preparedPerDatabase } from '../../db/preparedPerDatabase.js';
import { listSchemas, type StoredField } from '../../db/schema/listSchemas.js';
import { errors } from '../../http/errors.js';

/** What the record methods need to know about a list. */
export interface ListForRecords {
  id: string;
  ownerId: number;
  fields: StoredField[];
  /** live records (unfiltered `meta.total`), kept with every insert and delete */
  itemCount: number;
}

// A hot fixed query (design: named statements).
const listById = preparedPerDatabase((db) =>
  db
    .select({
      id: listSchemas.id,
      ownerId: listSchemas.ownerId,
      fields: listSchemas.fields,
      itemCount: listSchemas.itemCount,
      deletedAt: listSchemas.deletedAt,
    })
    .from(listSchemas)
    .where(eq(listSchemas.id, sql.placeholder('id')))
    .prepare('lk_list_for_records'),
);

/** IDs we never issued (NUL cannot even be sent to Postgres) are simply not found. */
export function isLookupableId(id: string): boolean {
  return id.length > 0 && id.length <= 255 && !id.includes('\u0000');
}

export async function findLiveList(db: Database, id: string): Promise<ListForRecords | undefined> {
  if (!isLookupableId(id)) return undefined;
  const [row] = await listById(db).execute({ id });
  // spec 3: a deleted list is gone at once, even while its records are still being reclaimed.
  if (!row || row.deletedAt !== null) return undefined;
  return { id: row.id, ownerId: row.ownerId, fields: row.fields, itemCount: row.itemCount };
}

/** spec 4: non-existent (or deleted) list → 404 with errors.schema_id; another account's → 403. */
export async function requireOwnList(
  db: Database,
  caller: Caller,
  id: string,
): Promise<ListForRecords> {
  const list = await findLiveList(db, id);
  if (!list) throw errors.listNotFound();
  if (list.ownerId !== caller.accountId) throw errors.forbidden();
  return list;
}
