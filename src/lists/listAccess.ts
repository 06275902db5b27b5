import type { Caller } from '../admission/caller.js';
import type { ListSchemaRow } from '../infra/db/schema/listSchemas.js';
import { domainErrors } from '../shared/domainErrors.js';
import type { ListsContext } from './context.js';

/** The one answer for a list of another account, whichever method reached it. */
export const OTHER_ACCOUNTS_LIST = 'This list belongs to a project of another account.';

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
  if ((await lists.queries.ownerOfLiveList(schemaId)) === undefined) {
    throw domainErrors.listNotFound();
  }
  throw domainErrors.forbidden(OTHER_ACCOUNTS_LIST);
}
