import { domainErrors } from '../../shared/errors.js';
import type { ItemContext } from '../context.js';
import { requireOwnItem } from './itemLookup.js';
import { deleteItemRow } from './itemRows.js';

/** deleteListItem: 404 when missing or already deleted, 403 for another account's record. */
export async function deleteItem(ctx: ItemContext, itemId: string, inList?: string): Promise<void> {
  const found = await requireOwnItem(ctx, itemId);
  // a batch of one list: an item of another list is not found
  if (inList !== undefined && found.schemaId !== inList) throw domainErrors.itemNotFound();
  if (!(await deleteItemRow(ctx.db, itemId))) throw domainErrors.itemNotFound();
}
