import { DomainError } from '../../shared/domainErrors.js';
import {
  checkEach,
  underItem,
  type ItemFailure,
  type ItemOutcome,
} from '../../shared/itemOutcomes.js';
import type { OrderedObject } from '../../shared/orderedJson.js';
import { listsOnTransaction, type ItemContext } from '../context.js';
import { requireOwnList } from '../listAccess.js';
import { refuseReferences } from './references.js';
import { updateItem } from './updateItem.js';
import { updateItems, type ItemChange } from './updateItems.js';
import { validateData } from './validateData.js';

type Updated = { updated: OrderedObject[]; outcomes: ItemOutcome<OrderedObject>[] };

/**
 * updateListItems: a batch of distinct records in one statement (updateItems). A batch that
 * names a record twice applies its items in turn, each answered with the record after its own
 * change, as that many updateListItem calls would.
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
  // The contacts and bots of every item looked up at once; an item whose data does not
  // validate is left to its own update, which answers its 422 in its turn.
  const { passed } = checkEach('items', items, (item) => ({
    values: validateData(list.fields, item.data, 'update'),
  }));
  const refused = new Map<number, ItemFailure>();
  await refuseReferences(ctx.db, ctx.caller, list.fields, passed, refused);
  const turn: InTurn = async (c, item, index) => {
    const failure = refused.get(index);
    if (failure) throw failure.error;
    try {
      return await updateItem(c, item.itemId, item.data, schemaId, true);
    } catch (err) {
      throw underItem(err, 'items', index);
    }
  };
  return atomic ? allInTurn(ctx, items, turn) : eachInTurn(ctx, items, turn);
}

/** One item's update; its error comes keyed under `items.<index>`. */
type InTurn = (ctx: ItemContext, item: ItemChange, index: number) => Promise<OrderedObject>;

/** In one transaction: the first failing item undoes the others, its error is the batch's. */
async function allInTurn(
  ctx: ItemContext,
  items: readonly ItemChange[],
  turn: InTurn,
): Promise<Updated> {
  const updated = await ctx.db.transaction(async (tx) => {
    const onTx = listsOnTransaction(ctx, tx);
    const done: OrderedObject[] = [];
    for (const [index, item] of items.entries()) done.push(await turn(onTx, item, index));
    return done;
  });
  return { updated, outcomes: updated.map((result, index) => ({ index, result })) };
}

/** Each item on its own: a failure is that item's outcome and the others stand. */
async function eachInTurn(
  ctx: ItemContext,
  items: readonly ItemChange[],
  turn: InTurn,
): Promise<Updated> {
  const outcomes: ItemOutcome<OrderedObject>[] = [];
  for (const [index, item] of items.entries()) {
    try {
      outcomes.push({ index, result: await turn(ctx, item, index) });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      outcomes.push({ index, error: err });
    }
  }
  return { updated: [], outcomes };
}
