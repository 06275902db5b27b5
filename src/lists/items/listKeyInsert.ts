import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../infra/db/client.js';
import { listItemsPartitioned } from '../../infra/db/engine.js';
import { listKeyOf } from './listScope.js';

/**
 * What an insert into list_items adds for the records' list key: `, list_key` to its columns
 * and `, hashtextextended(<list id>, 0)` to each row's values where the table is partitioned
 * by that key (migration 0021); nothing where Postgres computes the column itself (Citus).
 * `list_items_list_key_check_p<n>` (one on each partition) refuses any other value.
 */
export async function listKeyInsert(
  db: Database,
  /** the list's id, or an expression of the insert's select that gives it */
  listId: string | SQL,
): Promise<{ column: SQL; value: SQL }> {
  if (!(await listItemsPartitioned(db))) return { column: sql``, value: sql`` };
  return { column: sql`, list_key`, value: sql`, ${listKeyOf(listId)}` };
}
