import { uuidv7 } from 'uuidv7';
import type { ListSchemaRow } from '../../infra/db/schema/listSchemas.js';
import { domainErrors } from '../../shared/domainErrors.js';
import {
  checkEach,
  inBatchOrder,
  wholeBatchError,
  type ItemOutcome,
} from '../../shared/itemOutcomes.js';
import type { OrderedObject } from '../../shared/orderedJson.js';
import type { ItemContext } from '../context.js';
import { requireOwnList } from '../listAccess.js';
import { insertItemRows, type NewItemRow } from './batchRows.js';
import { FieldsChanged } from './itemRows.js';
import { presentItem } from './listItemPresenter.js';
import { refuseReferences } from './references.js';
import { storedRecord } from './storedJson.js';
import { toStoredChanges } from './storedRow.js';
import { validateData } from './validateData.js';

/** Items per addListItems call. */
export const MAX_BATCH_ITEMS = 1000;
/** A field change racing the insert is retried against the new fields this many times. */
const ATTEMPTS = 3;

/**
 * addListItems: every item validated as addListItem validates one (errors keyed
 * `items.<index>.<slug>`), the contact and bot values of the whole batch looked up at once,
 * then one insert for all of them. `atomic`: any failing item fails the batch and nothing is
 * written. Not atomic: the valid items are written and each item gets its own outcome.
 */
export async function addItems(
  ctx: ItemContext,
  schemaId: string,
  items: readonly Record<string, unknown>[],
  atomic: boolean,
): Promise<{ created: OrderedObject[]; outcomes: ItemOutcome<OrderedObject>[] }> {
  for (let attempt = 1; ; attempt++) {
    const list = await requireOwnList(ctx, ctx.caller, schemaId);
    try {
      return await addTo(ctx, list, items, atomic);
    } catch (err) {
      if (!(err instanceof FieldsChanged)) throw err;
      if (attempt >= ATTEMPTS) throw domainErrors.contended();
    }
  }
}

async function addTo(
  ctx: ItemContext,
  list: ListSchemaRow,
  items: readonly Record<string, unknown>[],
  atomic: boolean,
) {
  const { passed: valid, failed } = checkEach('items', items, (data) => ({
    values: validateData(list.fields, data, 'add'),
  }));
  await refuseReferences(ctx.db, ctx.caller, list.fields, valid, failed);
  if (atomic && failed.size > 0) throw wholeBatchError([...failed.values()]);

  const now = ctx.clock();
  const written = valid
    .filter((v) => !failed.has(v.index))
    .map((v) => {
      const id = uuidv7();
      const changes = toStoredChanges(list.fields, v.values, ctx.cipher);
      const item = presentItem(
        list.fields,
        { id, data: changes.data, createdAt: now, updatedAt: now },
        ctx.cipher,
      );
      const row: NewItemRow = { id, changes, stored: storedRecord(list, item) };
      return { index: v.index, row, item };
    });
  await insertItemRows(
    ctx.db,
    list.ownerId,
    list.id,
    list.fields,
    written.map((w) => w.row),
    now,
  );

  const outcomes = inBatchOrder(
    failed.values(),
    written.map((w) => ({ index: w.index, result: w.item })),
  );
  return { created: written.map((w) => w.item), outcomes };
}
