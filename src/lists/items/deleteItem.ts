import { domainErrors } from '../../shared/errors.js';
import type { ItemContext } from '../context.js';
import { requireOwnItem } from './itemLookup.js';
import { deleteItemRow } from './itemRows.js';

/** deleteListItem: 404 when missing or already deleted, 403 for another account's record. */
export async function deleteItem(ctx: ItemContext, itemId: string): Promise<void> {
  await requireOwnItem(ctx, itemId);
  if (!(await deleteItemRow(ctx.db, itemId))) throw domainErrors.itemNotFound();
}
