import { sql } from 'drizzle-orm';
import type { Database } from '../infra/db/client.js';
import { listItems } from '../infra/db/schema/listItems.js';
import { listSchemas, type ListSchemaRow } from '../infra/db/schema/listSchemas.js';
import { isLookupableId, isOwnLiveList } from './schemas/listSchemaRepository.js';
import type { FoundItem } from './items/foundItem.js';
import type { SlotValues } from './items/itemSlots.js';
import { SLOT_COLUMNS, SLOT_PROPERTY } from './slots.js';

/**
 * The fixed queries every list or list item request starts with, prepared once per
 * database at start-up: a named statement is parsed and planned once per connection, and no
 * drizzle query is built per request (docs/records.md).
 */
export interface ListQueries {
  /** `ownerId`'s list that exists and is not deleted */
  liveList(ownerId: number, id: string): Promise<ListSchemaRow | undefined>;
  /** `ownerId`'s list item whose list is live, with its list's fields */
  item(ownerId: number, id: string): Promise<FoundItem | undefined>;
  /**
   * Whose live list or list item this is, whoever owns it: the 403-or-404 question, asked
   * only after the caller's own rows missed (on Citus it fans out to every shard).
   */
  ownerOfLiveList(id: string): Promise<number | undefined>;
  ownerOfItem(id: string): Promise<number | undefined>;
}

/** An item's list: the same owner, and the id the item names. */
const ITS_LIST = sql`${listSchemas.ownerId} = ${listItems.ownerId} and ${listSchemas.id} = ${listItems.schemaId}`;

export function prepareListQueries(db: Database): ListQueries {
  const liveListById = db
    .select()
    .from(listSchemas)
    .where(isOwnLiveList(sql.placeholder('owner'), sql.placeholder('id')))
    .prepare('lk_live_list_by_id');
  const itemById = db
    .select({
      id: listItems.id,
      data: listItems.data,
      // the slotted values live there (thin documents, items/itemSlots.ts)
      slots: Object.fromEntries(SLOT_COLUMNS.map((c) => [c, listItems[SLOT_PROPERTY[c]]])),
      createdAt: listItems.createdAt,
      updatedAt: listItems.updatedAt,
      schemaId: listItems.schemaId,
      ownerId: listSchemas.ownerId,
      fields: listSchemas.fields,
    })
    .from(listItems)
    .innerJoin(listSchemas, ITS_LIST)
    // an item whose list was deleted is gone too
    .where(
      sql`${listItems.ownerId} = ${sql.placeholder('owner')} and ${listItems.id} = ${sql.placeholder('id')}
          and ${listSchemas.deletedAt} is null`,
    )
    .prepare('lk_record_by_id');

  return {
    async liveList(owner, id) {
      if (!isLookupableId(id)) return undefined;
      const [row] = await liveListById.execute({ owner, id });
      return row;
    },
    async item(owner, id) {
      if (!isLookupableId(id)) return undefined;
      const [row] = await itemById.execute({ owner, id });
      if (!row) return undefined;
      const { schemaId, ownerId, fields, slots, ...rest } = row;
      // drizzle answers null for a nested selection whose columns are all null
      const record = slots ? { ...rest, slots: slots as SlotValues } : rest;
      return { record, schemaId, ownerId, fields };
    },
    async ownerOfLiveList(id) {
      if (!isLookupableId(id)) return undefined;
      const [row] = await db
        .select({ ownerId: listSchemas.ownerId })
        .from(listSchemas)
        .where(sql`${listSchemas.id} = ${id} and ${listSchemas.deletedAt} is null`);
      return row?.ownerId;
    },
    async ownerOfItem(id) {
      if (!isLookupableId(id)) return undefined;
      const [row] = await db
        .select({ ownerId: listSchemas.ownerId })
        .from(listItems)
        .innerJoin(listSchemas, ITS_LIST)
        .where(sql`${listItems.id} = ${id} and ${listSchemas.deletedAt} is null`);
      return row?.ownerId;
    },
  };
}
