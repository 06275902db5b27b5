import { uuidv7 } from 'uuidv7';
import { domainErrors } from '../../shared/domainErrors.js';
import type { OrderedObject } from '../../shared/orderedJson.js';
import type { ItemContext } from '../context.js';
import type { ListSchemaRow } from '../../infra/db/schema/listSchemas.js';
import { requireOwnList } from '../listAccess.js';
import { presentItem } from './listItemPresenter.js';
import { checkReferences } from './references.js';
import { FieldsChanged, insertItemRow } from './itemRows.js';
import type { ItemRow } from './foundItem.js';
import { storedRecord } from './storedJson.js';
import { toStoredChanges } from './storedRow.js';
import { validateData } from './validateData.js';

/** A field change racing the insert is retried against the new fields this many times. */
const ATTEMPTS = 3;

/**
 * addListItem: validate against the list's fields, check linked contacts and bots, insert. A list
 * remembered from an earlier insert (recentLists.ts) saves the lookup; if anything fails with
 * it — a 4xx as much as a changed list — the request starts over from a fresh read, so every
 * answer rests on the database's current list.
 */
export async function addItem(
  ctx: ItemContext,
  schemaId: string,
  data: Record<string, unknown>,
): Promise<OrderedObject> {
  const recent = ctx.recentLists;
  let remembered = recent.get(schemaId, ctx.clock().getTime());
  // another account's list: the fresh read below answers its 403
  if (remembered?.ownerId !== ctx.caller.accountId) remembered = undefined;
  for (let attempt = 1; ;) {
    const list = remembered ?? (await requireOwnList(ctx, ctx.caller, schemaId));
    try {
      const item = await insertInto(ctx, list, data);
      recent.remember(list, ctx.clock().getTime());
      return item;
    } catch (err) {
      if (remembered) {
        recent.forget(schemaId);
        remembered = undefined;
        continue;
      }
      if (!(err instanceof FieldsChanged)) throw err;
      if (attempt >= ATTEMPTS) throw domainErrors.contended();
      attempt++;
    }
  }
}

/** The item as answered; rendered before the insert, which may store it beside the row. */
async function insertInto(
  ctx: ItemContext,
  list: ListSchemaRow,
  data: Record<string, unknown>,
): Promise<OrderedObject> {
  const values = validateData(list.fields, data, 'add');
  await checkReferences(ctx.db, ctx.caller, list.fields, values);
  const changes = toStoredChanges(list.fields, values, ctx.cipher);
  const now = ctx.clock();
  // The id and the timestamps are chosen here, so the answer is known before the write.
  const row: ItemRow = { id: uuidv7(), data: changes.data, createdAt: now, updatedAt: now };
  const item = presentItem(list.fields, row, ctx.cipher);
  await insertItemRow(ctx.db, {
    ownerId: list.ownerId,
    listId: list.id,
    fieldsSeen: list.fields,
    changes,
    now,
    id: row.id,
    also: ctx.alsoWrite?.(item),
    stored: storedRecord(list, item),
  });
  return item;
}
