import type { Caller } from '../../admission/caller.js';
import type { Database } from '../../infra/db/client.js';
import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import { domainErrors } from '../../shared/errors.js';
import { findLiveList as findLiveListRow } from '../schemas/repository.js';

/** What the record methods need to know about a list. */
export interface ListForItems {
  id: string;
  ownerId: number;
  fields: StoredField[];
  /** live records (unfiltered `meta.total`), kept with every insert and delete */
  itemCount: number;
}

/** The live list behind `id`: the same prepared lookup as the schema methods use. */
export async function findLiveList(db: Database, id: string): Promise<ListForItems | undefined> {
  const row = await findLiveListRow(db, id);
  return row && { id: row.id, ownerId: row.ownerId, fields: row.fields, itemCount: row.itemCount };
}

/** spec 4: non-existent (or deleted) list → 404 with errors.schema_id; another account's → 403. */
export async function requireOwnList(
  db: Database,
  caller: Caller,
  id: string,
): Promise<ListForItems> {
  const list = await findLiveList(db, id);
  if (!list) throw domainErrors.listNotFound();
  if (list.ownerId !== caller.accountId) throw domainErrors.forbidden();
  return list;
}
