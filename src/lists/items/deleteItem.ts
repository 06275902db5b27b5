import { domainErrors } from '../../shared/domainErrors.js';
import type { ItemContext } from '../context.js';
import { requireOwnItem } from './itemLookup.js';
import { deleteItemRow } from './itemRows.js';

/** deleteListItem: 404 when missing or already deleted, 403 for another account's record. */
export async function deleteItem(ctx: ItemContext, itemId: string, inList?: string): Promise<void> {
  const found = await requireOwnItem(ctx, itemId, inList);
  if (!(await deleteItemRow(ctx.db, found.ownerId, found.schemaId, itemId)))
    throw domainErrors.itemNotFound();
}
