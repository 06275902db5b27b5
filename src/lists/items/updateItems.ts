import type { ListSchemaRow } from '../../infra/db/schema/listSchemas.js';
import { domainErrors } from '../../shared/domainErrors.js';
import type { OrderedObject } from '../../shared/orderedJson.js';
import type { ItemContext } from '../context.js';
import { requireOwnList } from '../listAccess.js';
import type { ItemRow } from './foundItem.js';
import { findItemRows, updateItemRows, type ChangedItemRow } from './batchRows.js';
import { presentItem } from './listItemPresenter.js';
import { refuseReferences } from './references.js';
import { toStoredChanges } from './storedRow.js';
import { validateData } from './validateData.js';
import {
  checkEach,
  failedItem,
  inBatchOrder,
  wholeBatchError,
  type ItemOutcome,
} from '../../shared/itemOutcomes.js';

/** The list's fields changed while the batch was written: validated again this many times. */
const ATTEMPTS = 3;

export interface ItemChange {
  itemId: string;
  data: Record<string, unknown>;
}

/**
 * updateListItems for a batch of distinct records: every record looked up at once, each
 * item validated as updateListItem validates one (errors keyed `items.<index>.<slug>`; a
 * record that is not in the list is `items.<index>.item_id`), the contact and bot values of
 * the whole batch checked together, then one statement for all changes. `atomic`: any
 * failing item fails the batch with every item's error, and nothing is written. Not atomic:
 * the valid items are written and each item gets its own outcome. An item that changes
 * nothing is answered as stored, without a write.
 */
export async function updateItems(
  ctx: ItemContext,
  schemaId: string,
  items: readonly ItemChange[],
  atomic: boolean,
): Promise<{ updated: OrderedObject[]; outcomes: ItemOutcome<OrderedObject>[] }> {
  for (let attempt = 1; ; attempt++) {
    const list = await requireOwnList(ctx, ctx.caller, schemaId);
    const done = await updateIn(ctx, list, items, atomic);
    if (done) return done;
    if (attempt >= ATTEMPTS) {
      // the list deleted at the last try is a 404, as the next look would have said
      await requireOwnList(ctx, ctx.caller, schemaId);
      throw domainErrors.contended();
    }
  }
}

/** The batch against one look at the list and its records; undefined to look again. */
async function updateIn(
  ctx: ItemContext,
  list: ListSchemaRow,
  items: readonly ItemChange[],
  atomic: boolean,
) {
  const stored = await recordsOf(ctx, list, items);
  const { passed: valid, failed } = checkEach('items', items, (item) => {
    const record = stored.get(item.itemId);
    if (!record) throw domainErrors.itemNotFound();
    return { record, values: validateData(list.fields, item.data, 'update') };
  });
  await refuseReferences(ctx.db, ctx.caller, list.fields, valid, failed);
  if (atomic && failed.size > 0) throw wholeBatchError([...failed.values()]);

  const passing = valid.filter((v) => !failed.has(v.index));
  const changed: ChangedItemRow[] = passing
    .filter((v) => v.values.size > 0)
    .map((v) => ({
      id: v.record.id,
      changes: toStoredChanges(list.fields, v.values, ctx.cipher),
    }));
  let written = new Map<string, ItemRow>();
  if (changed.length > 0) {
    const rows = await updateItemRows(
      ctx.db,
      list.ownerId,
      list.id,
      list.fields,
      changed,
      ctx.clock(),
      (ids) => !atomic || ids.size === changed.length,
    );
    if (!rows) return undefined;
    // deleted after the look-up: the delete came first, so the item is not found
    for (const v of passing) {
      if (v.values.size > 0 && !rows.has(v.record.id))
        failed.set(v.index, failedItem(domainErrors.itemNotFound(), 'items', v.index));
    }
    if (atomic && failed.size > 0) throw wholeBatchError([...failed.values()]);
    written = rows;
  }
  const results = passing
    .filter((v) => !failed.has(v.index))
    .map((v) => ({
      index: v.index,
      result: presentItem(list.fields, written.get(v.record.id) ?? v.record, ctx.cipher),
    }));
  return {
    updated: results.map((r) => r.result),
    outcomes: inBatchOrder(failed.values(), results),
  };
}

/** The batch's records that are in the list, by id: one look-up for all of them. */
async function recordsOf(
  ctx: ItemContext,
  list: ListSchemaRow,
  items: readonly ItemChange[],
): Promise<Map<string, ItemRow>> {
  const ids = [...new Set(items.map((i) => i.itemId))];
  const rows = await findItemRows(ctx.db, list.ownerId, ids);
  return new Map(rows.filter((row) => row.schemaId === list.id).map((row) => [row.id, row]));
}
