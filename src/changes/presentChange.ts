import type { Database } from '../infra/db/client.js';
import type { FieldCipher } from '../lists/encryption/cipher.js';
import { presentItem } from '../lists/items/listItemPresenter.js';
import { JsonText, OrderedObject } from '../shared/orderedJson.js';
import type { LayoutCache } from './layouts.js';
import type { ChangeRow } from './readChanges.js';
import type { SlotValues } from '../lists/items/itemSlots.js';

interface StoredItem {
  data: Record<string, unknown>;
  /** the slot columns as written (absent in changes recorded before thin documents) */
  slots?: SlotValues;
  created_at: string;
  updated_at: string;
}

/**
 * The changes as getChanges answers them: `id`, `type`, `occurred_at`, the ids of what
 * changed (`schema_id` and `item_id`, or `bot_id` and `contact_id`) and `data`. A list item is
 * shown as getListItems shows it, with the fields of the layout it was written under, and
 * its sealed values decrypted only now; lists and contacts were rendered when written.
 */
export async function presentChanges(
  accountId: number,
  rows: readonly ChangeRow[],
  db: Pick<Database, 'execute'>,
  cipher: FieldCipher,
  layouts: LayoutCache,
): Promise<OrderedObject[]> {
  const wanted = rows.flatMap((r) =>
    r.layout !== null && r.schemaId !== null ? [{ schemaId: r.schemaId, layout: r.layout }] : [],
  );
  const fieldsOf = await layouts.fieldsOf(db, accountId, wanted);
  return rows.map((row) => {
    const entries: [string, unknown][] = [
      ['id', row.seq],
      ['type', row.type],
      ['occurred_at', row.occurredAt.toISOString()],
    ];
    if (row.contactId !== null) entries.push(['bot_id', row.botId], ['contact_id', row.contactId]);
    else {
      entries.push(['schema_id', row.schemaId]);
      if (row.itemId !== null) entries.push(['item_id', row.itemId]);
    }
    entries.push(['data', dataOf(row, fieldsOf)]);
    return new OrderedObject(entries);
  });

  function dataOf(row: ChangeRow, fieldsOf: Awaited<ReturnType<LayoutCache['fieldsOf']>>): unknown {
    if (row.data === null) return null;
    if (row.layout === null || row.itemId === null || row.schemaId === null) {
      return new JsonText(row.data);
    }
    const fields = fieldsOf(row.schemaId, row.layout);
    if (!fields) throw new Error(`layout ${row.layout} of list ${row.schemaId} is missing`);
    const stored = JSON.parse(row.data) as StoredItem;
    return presentItem(
      fields,
      {
        id: row.itemId,
        data: stored.data,
        ...(stored.slots ? { slots: stored.slots } : {}),
        createdAt: new Date(stored.created_at),
        updatedAt: new Date(stored.updated_at),
      },
      cipher,
    );
  }
}
