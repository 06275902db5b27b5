import type { Database } from '../../src/infra/db/client.js';
import { listItemsPartitioned } from '../../src/infra/db/engine.js';
import { listItems } from '../../src/infra/db/schema/listItems.js';
import { listKeyOf } from '../../src/lists/items/listScope.js';

type NewRecordRow = Omit<typeof listItems.$inferInsert, 'listKey'>;

/**
 * A test's own rows written straight into list_items, with the list key named where the table
 * is partitioned by it (src/lists/items/listKeyInsert.ts) and left to Postgres on Citus.
 */
export async function insertRecordRows(
  db: Database,
  rows: NewRecordRow | readonly NewRecordRow[],
): Promise<void> {
  const written = await listItemsPartitioned(db);
  const keyed = (Array.isArray(rows) ? rows : [rows]).map((row: NewRecordRow) => ({
    ...row,
    // undefined: drizzle writes DEFAULT, which a generated column takes
    listKey: written ? listKeyOf(row.schemaId) : undefined,
  }));
  await db.insert(listItems).values(keyed as unknown as (typeof listItems.$inferInsert)[]);
}
