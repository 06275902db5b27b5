import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import { DomainError, ValidationError } from '../../shared/domainErrors.js';
import {
  failedItem,
  underItem,
  type ItemFailure,
  type ItemOutcome,
} from '../../shared/itemOutcomes.js';
import type { OrderedObject } from '../../shared/orderedJson.js';
import { listsOnTransaction, type ItemContext } from '../context.js';
import { requireOwnList } from '../listAccess.js';
import { addReferenceFailures, referenceProblems } from './references.js';
import { updateItem } from './updateItem.js';
import { updateItems, type ItemChange } from './updateItems.js';
import { validateData, type FieldValues } from './validateData.js';

type Updated = { updated: OrderedObject[]; outcomes: ItemOutcome<OrderedObject>[] };

/**
 * updateListItems: a batch of distinct records in one statement (updateItems). A batch that
 * names a record twice applies its items in turn, each answered with the record after its own
 * change, as that many updateListItem calls would: `atomic` in one transaction that the first
 * failing item undoes (its error is the batch's), else each item on its own.
 */
export async function updateBatch(
  ctx: ItemContext,
  schemaId: string,
  items: readonly ItemChange[],
  atomic: boolean,
): Promise<Updated> {
  if (new Set(items.map((item) => item.itemId)).size === items.length) {
    return updateItems(ctx, schemaId, items, atomic);
  }
  const list = await requireOwnList(ctx, ctx.caller, schemaId);
  const refused = await checkBatchReferences(ctx, list.fields, items);
  const updateOne = (c: ItemContext, item: ItemChange, index: number) => {
    const failure = refused.get(index);
    if (failure) throw failure.error;
    return updateItem(c, item.itemId, item.data, schemaId, true);
  };
  if (atomic) {
    const updated = await ctx.db.transaction(async (tx) => {
      const onTx = listsOnTransaction(ctx, tx);
      const done: OrderedObject[] = [];
      for (const [index, item] of items.entries()) {
        try {
          done.push(await updateOne(onTx, item, index));
        } catch (err) {
          throw underItem(err, 'items', index);
        }
      }
      return done;
    });
    return { updated, outcomes: updated.map((result, index) => ({ index, result })) };
  }
  const outcomes: ItemOutcome<OrderedObject>[] = [];
  for (const [index, item] of items.entries()) {
    try {
      outcomes.push({ index, result: await updateOne(ctx, item, index) });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      outcomes.push(failedItem(err, 'items', index));
    }
  }
  return { updated: [], outcomes };
}

/**
 * The contacts and bots of every item, looked up at once (one query per kind for the whole
 * batch): item index → its failure, keyed `data.<slug>` as its own update would answer it.
 * Items whose data does not validate are left to their own update, which answers their 422.
 */
async function checkBatchReferences(
  ctx: ItemContext,
  fields: readonly StoredField[],
  items: readonly ItemChange[],
): Promise<Map<number, ItemFailure>> {
  const valid: { index: number; values: FieldValues }[] = [];
  for (const [index, item] of items.entries()) {
    try {
      valid.push({ index, values: validateData(fields, item.data, 'update') });
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
    }
  }
  const problems = await referenceProblems(
    ctx.db,
    ctx.caller,
    fields,
    valid.map((v) => ({ prefix: 'data', values: v.values })),
  );
  const failed = new Map<number, ItemFailure>();
  addReferenceFailures(problems, valid, failed);
  return failed;
}
