import { domainErrors } from '../../shared/domainErrors.js';
import type { ItemContext } from '../context.js';
import type { FoundItem } from './foundItem.js';

/**
 * A missing item (or list) → 404 with errors.item_id; another account's → 403. Within a
 * batch of one list (`inList`, whose access was checked), an item of any other list is
 * simply not found.
 */
export async function requireOwnItem(
  ctx: ItemContext,
  id: string,
  inList?: string,
): Promise<FoundItem> {
  // the caller's own rows first (see requireOwnList)
  const found = await ctx.queries.item(ctx.caller.accountId, id);
  if (found) {
    if (inList !== undefined && found.schemaId !== inList) throw domainErrors.itemNotFound();
    return found;
  }
  if (inList !== undefined || (await ctx.queries.ownerOfItem(id)) === undefined) {
    throw domainErrors.itemNotFound();
  }
  throw domainErrors.foreignList();
}
