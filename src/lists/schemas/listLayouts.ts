import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../infra/db/client.js';
import { ownerConstant } from '../../infra/db/ownerConstant.js';
import { listSchemas, type ListSchemaRow } from '../../infra/db/schema/index.js';

type Tx = Pick<Database, 'execute'>;

/**
 * A list's `layout` numbers its `fields`: it goes up with every change of them, and
 * `list_layouts` keeps each layout's fields, so a change-feed event shows a record under the
 * fields it was written with (docs/changes.md). The list writes that change `fields` keep both
 * here, in their own transaction: NEXT_LAYOUT in the update, keepLayout after it.
 *
 * On Postgres the row triggers of migration 0009 do the same (the same numbers, so the two
 * agree) and also cover fields changed by SQL outside the service. A Citus placement drops them
 * (citusDistribution.ts): Citus runs triggers on distributed tables only as "unsafe".
 */
export const NEXT_LAYOUT: SQL = sql`${listSchemas.layout} + 1`;

/** Keeps the list's current fields as its current layout, read from the row just written. */
export async function keepLayout(tx: Tx, list: ListSchemaRow): Promise<void> {
  // over the list's row, not VALUES: the same statement on both engines, one shard on Citus
  await tx.execute(
    sql`insert into list_layouts (owner_id, schema_id, layout, fields)
        select l.owner_id, l.id, l.layout, l.fields from ${listSchemas} l
        where l.owner_id = ${ownerConstant(list.ownerId)} and l.id = ${list.id}
        on conflict do nothing`,
  );
}
