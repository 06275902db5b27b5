import { domainErrors } from '../../shared/domainErrors.js';
import type { OrderedObject } from '../../shared/orderedJson.js';
import type { ItemContext } from '../context.js';
import { presentItem } from './listItemPresenter.js';
import { requireOwnItem } from './itemLookup.js';
import { checkReferences } from './references.js';
import { updateItemRow } from './itemRows.js';
import { toStoredChanges } from './storedRow.js';
import { validateData } from './validateData.js';

/** A field change racing the update is retried against the new fields this many times. */
const ATTEMPTS = 3;

/**
 * updateListItem: only sent fields are validated and changed; empty values are skipped (a
 * required one is a 422). Answers the whole record. Nothing to change leaves it as it is.
 */
export async function updateItem(
  ctx: ItemContext,
  itemId: string,
  data: Record<string, unknown>,
  /** a batch of one list: an item of another list is not found */
  inList?: string,
  /** the batch checked the contacts and bots of all its items at once */
  referencesChecked = false,
): Promise<OrderedObject> {
  for (let attempt = 1; ; attempt++) {
    const found = await requireOwnItem(ctx, itemId, inList);
    const values = validateData(found.fields, data, 'update');
    if (values.size === 0) return presentItem(found.fields, found.record, ctx.cipher);
    if (!referencesChecked) await checkReferences(ctx.db, ctx.caller, found.fields, values);
    const changes = toStoredChanges(found.fields, values, ctx.cipher);
    const row = await updateItemRow(
      ctx.db,
      found.ownerId,
      found.schemaId,
      itemId,
      found.fields,
      changes,
      ctx.clock(),
    );
    if (row) return presentItem(found.fields, row, ctx.cipher);
    // Nothing written: the record or its list is gone (404 on the next lookup), or the
    // list's fields changed meanwhile, and the values are validated again against them.
    if (attempt >= ATTEMPTS) {
      await requireOwnItem(ctx, itemId, inList);
      // still there after every try: the fields kept changing under the write
      throw domainErrors.contended();
    }
  }
}
