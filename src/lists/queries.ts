import { sql } from 'drizzle-orm';
import type { Database } from '../infra/db/client.js';
import { listItems } from '../infra/db/schema/listItems.js';
import { listSchemas, type ListSchemaRow } from '../infra/db/schema/listSchemas.js';
import { isLookupableId, isLiveList } from './schemas/repository.js';
import type { FoundItem } from './items/foundItem.js';

/**
 * The fixed queries every list or list item request starts with, prepared once per
 * database at start-up: named statements serve 1.4–1.6× the requests of unnamed ones, and
 * building a drizzle query per request costs as much CPU as running it (docs/records.md).
 */
export interface ListQueries {
  /** a list that exists and is not deleted */
  liveList(id: string): Promise<ListSchemaRow | undefined>;
  /** a list item whose list is live, with its list's owner and fields */
  item(id: string): Promise<FoundItem | undefined>;
}

export function prepareListQueries(db: Database): ListQueries {
  const liveListById = db
    .select()
    .from(listSchemas)
    .where(isLiveList(sql.placeholder('id')))
    .prepare('lk_live_list_by_id');
  const itemById = db
    .select({
      id: listItems.id,
      data: listItems.data,
      createdAt: listItems.createdAt,
      updatedAt: listItems.updatedAt,
      schemaId: listItems.schemaId,
      ownerId: listSchemas.ownerId,
      fields: listSchemas.fields,
    })
    .from(listItems)
    .innerJoin(listSchemas, sql`${listSchemas.id} = ${listItems.schemaId}`)
    // an item whose list was deleted is gone too
    .where(sql`${listItems.id} = ${sql.placeholder('id')} and ${listSchemas.deletedAt} is null`)
    .prepare('lk_record_by_id');

  return {
    async liveList(id) {
      if (!isLookupableId(id)) return undefined;
      const [row] = await liveListById.execute({ id });
      return row;
    },
    async item(id) {
      if (!isLookupableId(id)) return undefined;
      const [row] = await itemById.execute({ id });
      if (!row) return undefined;
      const { schemaId, ownerId, fields, ...record } = row;
      return { record, schemaId, ownerId, fields };
    },
  };
}
