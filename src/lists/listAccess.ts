import type { Caller } from '../admission/caller.js';
import type { Database } from '../infra/db/client.js';
import type { ListSchemaRow } from '../infra/db/schema/listSchemas.js';
import { domainErrors } from '../shared/domainErrors.js';
import type { ListsContext } from './context.js';
import { hasAnyOwnList, ownerOfAnyList } from './schemas/listSchemaRepository.js';

/**
 * The list behind `schema_id`, if the caller may touch it: 404 when it does not exist or
 * was deleted (getListSchema), 403 when its project is another account's. Only the project's
 * owner counts; team membership gives no access (the API conventions). Every list and list item method
 * goes through here.
 */
export async function requireOwnList(
  lists: Pick<ListsContext, 'queries'>,
  caller: Caller,
  schemaId: string,
): Promise<ListSchemaRow> {
  // the caller's own rows first: one shard on Citus, and the answer of every good request
  const list = await lists.queries.liveList(caller.accountId, schemaId);
  if (list) return list;
  return refuseList(await lists.queries.ownerOfLiveList(schemaId));
}

/**
 * requireOwnList for a list that may have been deleted: getChanges reads a deleted list's
 * changes too. The same 404 and 403.
 */
export async function requireOwnListEvenDeleted(
  db: Database,
  caller: Caller,
  schemaId: string,
): Promise<void> {
  if (await hasAnyOwnList(db, caller.accountId, schemaId)) return;
  return refuseList(await ownerOfAnyList(db, schemaId));
}

/** After the caller's own lists missed: 404 when nobody has the list, else 403. */
function refuseList(owner: number | undefined): never {
  throw owner === undefined ? domainErrors.listNotFound() : domainErrors.foreignList();
}
