import { sql, type SQL } from 'drizzle-orm';
import { plannedUnless, unplanned } from '../../infra/db/unplannedValue.js';

/**
 * The records of one list, named as every list_items index names them: the owner (the tenant
 * key, which routes the statement to one shard on Citus), then the list's 8-byte key
 * (`list_key`, a hash of the list's id that Postgres keeps with each record; migration 0016).
 * `list_schemas_list_key_idx` keeps that hash unique among an owner's lists, so the two name
 * exactly one list. Every statement that reads a list's records through an index starts here:
 * written with `schema_id` instead, it would find no index and read all of the owner's records.
 * `hidden`: the owner out of the planner's sight, for a statement kept under its shape's name
 * (infra/db/unplannedValue.ts). The list's key stays a parameter even there: a kept statement
 * on list_items partitioned by list (migration 0021) then sets aside every other partition as
 * it starts ("Subplans Removed"); hidden, the plan held and probed all of them. (The reads
 * kept by shape name the list's partition itself: listRecords.ts.)
 */
export function listScope(ownerId: number, listId: string, hidden = false): SQL {
  return scopeOf(plannedUnless(hidden, ownerId, 'bigint'), listKeyOf(listId));
}

/** `owner_id = owner and list_key = key`, the two as given. */
function scopeOf(owner: SQL, key: SQL): SQL {
  return sql`${sql.identifier('owner_id')} = ${owner} and ${sql.identifier('list_key')} = ${key}`;
}

/**
 * listScope for a statement kept per list (a walked page, pageQueries.ts): the owner out of
 * the planner's sight, the list's id written into the statement's text. A plan kept for any
 * list priced "the list" at its partition's average list, which beside many small lists is a
 * few records, and sorted a large list whole for every page; with the id in the text the
 * statistics give that list's own size (its key among the partition's most common values),
 * and the statement's name, made from its text, is the list's own.
 */
export function listScopeWritten(ownerId: number, listId: string): SQL {
  const id = sql.raw(`'${listId.replaceAll("'", "''")}'::text`);
  return scopeOf(unplanned(ownerId, 'bigint'), listKeyOf(id));
}

/**
 * The list's key as list_items holds it: with a record's id, the whole primary key. `listId`:
 * the list's id, or an expression of the statement that gives it.
 */
export function listKeyOf(listId: string | SQL): SQL {
  const id = typeof listId === 'string' ? sql`${listId}::text` : listId;
  return sql`hashtextextended(${id}, 0)`;
}

/**
 * The record `id` of a list, as its primary key finds it in the list's one partition: the id
 * and the list's key as the key's conditions, the owner checked on the row found. Written as
 * a plain condition, the owner and the list's key together matched the start of every other
 * index of list_items, and a planner that knew nothing of the list yet (right after a large
 * import) took those for as cheap as the key and walked the whole list for one record
 * (test/integration/itemWritePlans.test.ts). `table`: the alias the statement gives list_items.
 */
export function recordInList(table: string, ownerId: number, listId: string, id: SQL): SQL {
  const column = (name: string) => sql`${sql.identifier(table)}.${sql.identifier(name)}`;
  return sql`${column('id')} = ${id} and ${column('list_key')} = ${listKeyOf(listId)}
    and (${column('owner_id')} = ${ownerId}) is true`;
}
