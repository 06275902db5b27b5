import { sql } from 'drizzle-orm';
import { queryRows, type Database } from './client.js';

/**
 * Whether a database runs Citus, asked of its catalog once and remembered for it and for every
 * transaction opened on it. Some writes take another form there (docs/scaling.md, "Writes on
 * one worker"): Citus never runs a statement with an INSERT in a CTE on one shard; it splits
 * it, copies the CTEs' results to every worker and commits on all of them in two phases.
 *
 * Remembered by the query dialect: drizzle makes one per database and hands the same one to
 * each transaction on it, so a transaction's `tx` is known without a query of its own. A
 * database that gains the extension while the service runs keeps the Postgres forms until
 * the next start; they are correct there, only slower.
 */
const known = new WeakMap<object, Promise<EngineFacts>>();

interface EngineFacts {
  citus: boolean;
  itemsPartitioned: boolean;
}

/** What a database's remembered facts are keyed by: its query dialect (see above), or itself. */
export function databaseKey(db: Database): object {
  return (db as unknown as { dialect?: object }).dialect ?? db;
}

function engineFacts(db: Database): Promise<EngineFacts> {
  const key = databaseKey(db);
  let answer = known.get(key);
  if (!answer) {
    answer = queryRows<EngineFacts>(
      db,
      sql`select exists (select 1 from pg_extension where extname = 'citus') as citus,
            exists (select 1 from pg_class where oid = to_regclass('public.list_items')
                    and relkind = 'p') as "itemsPartitioned"`,
    ).then(([row]) => ({
      citus: row?.citus === true,
      itemsPartitioned: row?.itemsPartitioned === true,
    }));
    // a failed look-up (the database down) is asked again next time, not remembered
    answer.catch(() => known.delete(key));
    known.set(key, answer);
  }
  return answer;
}

export async function onCitus(db: Database): Promise<boolean> {
  return (await engineFacts(db)).citus;
}

/**
 * Whether list_items is partitioned by list (migration 0021; not on Citus): there inserts name
 * `list_key`, a plain column (on Citus it stays generated, and Postgres refuses a value for a
 * generated column), and a read names the list's own partition (lists/items/listRecords.ts).
 * Asked with onCitus's query and remembered alike.
 */
export async function listItemsPartitioned(db: Database): Promise<boolean> {
  return (await engineFacts(db)).itemsPartitioned;
}

/**
 * Whether a statement may name one list's partition of list_items: partitioned by list, and
 * not on Citus, where the statement's table and the owner decide the shard it goes to (a
 * Postgres database placed on a cluster keeps its partitions there too).
 */
export async function listPartitionsNamed(db: Database): Promise<boolean> {
  const facts = await engineFacts(db);
  return facts.itemsPartitioned && !facts.citus;
}
