import { sql } from 'drizzle-orm';
import type { Database } from '../infra/db/client.js';
import type { ListSchemaRow } from '../infra/db/schema/listSchemas.js';
import { presentListSchema } from '../lists/schemas/listSchemaPresenter.js';
import { stringifyJson } from '../shared/orderedJson.js';
import type { ChangeType } from './changeTypes.js';

type Tx = Pick<Database, 'execute'>;

/**
 * Records a change to a list in the transaction that made it: the list as getListSchema
 * would show it after the change, or only its id for a delete. (Each new `fields` is kept as a
 * layout by a trigger, migration 0009, so item events show the fields they were written under.)
 */
export async function recordListChange(
  tx: Tx,
  type: ChangeType,
  list: ListSchemaRow,
): Promise<void> {
  const deleted = type === 'list_schema.deleted';
  const data = deleted ? null : stringifyJson(presentListSchema(list));
  await tx.execute(
    sql`insert into changes (account_id, type, schema_id, bot_id, data)
        values (${list.ownerId}, ${type}, ${list.id}, ${list.botId}, ${data}::json)`,
  );
}
