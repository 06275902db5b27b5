import { domainErrors } from '../../shared/domainErrors.js';
import {
  failedItem,
  wholeBatchError,
  type ItemFailure,
  type ItemOutcome,
} from '../../shared/itemOutcomes.js';
import type { ItemContext } from '../context.js';
import { requireOwnList } from '../listAccess.js';
import { deleteItemRows } from './batchRows.js';

/**
 * deleteListItems: every record of the batch deleted by one statement, with the list's counter
 * and one change event each. An id that is not a record of the list — or that the batch named
 * before, as that many deleteListItem calls would find it gone — is `items.<index>.item_id`
 * not found. `atomic`: any such id fails the batch with every one's error and nothing is
 * deleted. Not atomic: the others are deleted and each id gets its own outcome (the id
 * deleted, or its failure).
 */
export async function deleteItems(
  ctx: ItemContext,
  schemaId: string,
  itemIds: readonly string[],
  atomic: boolean,
): Promise<ItemOutcome<string>[]> {
  const list = await requireOwnList(ctx, ctx.caller, schemaId);
  const distinct = [...new Set(itemIds)];
  const deleted = await deleteItemRows(
    ctx.db,
    list.ownerId,
    list.id,
    distinct,
    (gone) => !atomic || gone.size === itemIds.length,
  );
  const seen = new Set<string>();
  const outcomes = itemIds.map((id, index): ItemOutcome<string> => {
    const first = !seen.has(id);
    seen.add(id);
    return first && deleted.has(id)
      ? { index, result: id }
      : failedItem(domainErrors.itemNotFound(), 'items', index);
  });
  const failed = outcomes.filter((o): o is ItemFailure => 'error' in o);
  if (atomic && failed.length > 0) throw wholeBatchError(failed);
  return outcomes;
}
