import type { ItemContext } from '../context.js';
import { requireOwnList } from '../listAccess.js';
import { batchError, itemNotFoundFailure, type BatchFailure } from './batchErrors.js';
import { deleteItemRows } from './batchRows.js';

export type DeleteOutcome = { index: number; status: 204 } | BatchFailure;

/**
 * deleteListItems: every record of the batch deleted by one statement, with the list's counter
 * and one change event each. An id that is not a record of the list — or that the batch named
 * before, as that many deleteListItem calls would find it gone — is `items.<index>.item_id`
 * not found. `atomic`: any such id fails the batch with every one's error and nothing is
 * deleted. Not atomic: the others are deleted and each id gets its own outcome.
 */
export async function deleteItems(
  ctx: ItemContext,
  schemaId: string,
  itemIds: readonly string[],
  atomic: boolean,
): Promise<DeleteOutcome[]> {
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
  const outcomes = itemIds.map((id, index): DeleteOutcome => {
    const first = !seen.has(id);
    seen.add(id);
    return first && deleted.has(id) ? { index, status: 204 } : itemNotFoundFailure(index);
  });
  const failed = outcomes.filter((o): o is BatchFailure => o.status !== 204);
  if (atomic && failed.length > 0) throw batchError(failed);
  return outcomes;
}
