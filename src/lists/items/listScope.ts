import { sql, type SQL } from 'drizzle-orm';
import { plannedUnless, unplanned } from '../../infra/db/unplannedValue.js';

/**
 * The records of one list, named as every list_items index names them: the owner (the tenant
 * key, which routes the statement to one shard on Citus), then the list's 8-byte key
 * (`list_key`, a hash of the list's id that Postgres keeps with each record; migration 0016).
 * `list_schemas_list_key_idx` keeps that hash unique among an owner's lists, so the two name
 * exactly one list. Every statement that reads a list's records through an index starts here:
 * written with `schema_id` instead, it would find no index and read all of the owner's records.
 * `hidden`: both out of the planner's sight, for a statement kept under its shape's name on
 * Postgres (infra/db/unplannedValue.ts).
 */
export function listScope(ownerId: number, listId: string, hidden = false): SQL {
  const owner = plannedUnless(hidden, ownerId, 'bigint');
  const list = hidden ? unplanned(listId, 'text') : sql`${listId}::text`;
  return sql`${sql.identifier('owner_id')} = ${owner} and ${sql.identifier('list_key')} = hashtextextended(${list}, 0)`;
}
