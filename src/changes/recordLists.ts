import { sql } from 'drizzle-orm';
import type { Database } from '../infra/db/client.js';
import type { ListSchemaRow } from '../infra/db/schema/listSchemas.js';
import { presentListSchema } from '../lists/schemas/listSchemaPresenter.js';
import { stringifyJson } from '../shared/orderedJson.js';
import type { ChangeType } from './changeTypes.js';
import { FEED_TXID } from './feedStamp.js';
import { ownerConstant } from '../infra/db/ownerConstant.js';

type Tx = Pick<Database, 'execute'>;

/**
 * Records a change to a list in the transaction that made it: the list as getListSchema
 * would show it after the change, or only its id for a delete. Read over the list's row
 * (written before, so there even for a delete, which only marks it), as every feed write is
 * (feedStamp.ts). (Each new `fields` is kept as a layout, listLayouts.ts, so item events show
 * the fields they were written under.)
 */
export async function recordListChange(
  tx: Tx,
  type: ChangeType,
  list: ListSchemaRow,
): Promise<void> {
  const deleted = type === 'list_schema.deleted';
  const data = deleted ? null : stringifyJson(presentListSchema(list));
  await tx.execute(
    sql`insert into changes (account_id, type, schema_id, bot_id, data, txid)
        select l.owner_id, ${type}, l.id, l.bot_id, ${data}::json, ${FEED_TXID}
        from list_schemas l where l.owner_id = ${ownerConstant(list.ownerId)} and l.id = ${list.id}`,
  );
}
