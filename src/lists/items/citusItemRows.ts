import { sql, type SQL } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { queryRows, type Database } from '../../infra/db/client.js';
import { listItems } from '../../infra/db/schema/listItems.js';
import { listSchemas, type StoredField } from '../../infra/db/schema/listSchemas.js';
import { nextVersion } from '../listVersion.js';
import { toItemRow, type ItemRow, type StoredItemRow } from './foundItem.js';
import type { NewItem } from './newItem.js';
import { itemChangesAfter, previousRow } from '../../changes/recordItems.js';
import { transactionOr } from './batchTransaction.js';
import { slotColumnsSql } from './itemSlots.js';
import { listKeyInsert } from './listKeyInsert.js';
import {
  STORED_JSON_COLUMNS,
  storedJsonValues,
  updatedRecord,
  type UpdatedValues,
} from './storedJson.js';

/*
 * The single-record writes of itemRows.ts as Citus runs them on one worker (docs/scaling.md,
 * "Writes on one worker"). On Postgres each is one statement whose CTEs write the list, the
 * record and the feed. Citus plans no INSERT in a CTE on one shard: it splits such a
 * statement, copies the parts' results to every worker and commits on all of them in two
 * phases. Here the same writes are a transaction of statements that each name the owner, so
 * each goes to the owner's shards and the commit is one worker's. Same guards, same answers,
 * same events; test/integration/tenantStatements.test.ts counts the workers. (The batch
 * writes of batchRows.ts are transactions already: there only the events move to a statement
 * of their own.)
 */

/** The row before the write, as text: it travels through the service to the feed's insert. */
const PREVIOUS_TEXT = (row: string) => sql`${previousRow(row)}::text`;

/**
 * Runs `run` in the transaction `db` is, or in a new one: a single write inside a caller's
 * transaction (a batch of calls) adds no savepoint, as its one statement on Postgres adds
 * none. Only for writes that never roll back after writing.
 */
function inTransaction<T>(db: Database, run: (tx: Database) => Promise<T>): Promise<T> {
  return isTransaction(db) ? run(db) : db.transaction(run);
}

/** Whether `db` is a transaction a caller opened (a batch of calls), not the database. */
const isTransaction = (db: Database): boolean => (db as unknown) instanceof PgTransaction;

/**
 * insertItemRow: false when the guard found no list with the fields seen (nothing written).
 *
 * The list's row is locked last, by the counter's update, which repeats the guard: the lock is
 * then held for one statement and the commit, not for every round trip of the transaction —
 * inserts into one list queue only there (as batches do, batchRows.ts). Locked first, they
 * queued for the whole transaction: each statement goes through the coordinator to the
 * worker, and one list took under a hundred inserts a second. A list deleted or changed
 * meanwhile fails the guard and the transaction is undone. Inside a caller's transaction
 * nothing can be undone alone, so there the guard and the lock come first.
 */
export async function insertItemRowOnCitus(
  db: Database,
  item: NewItem & { id: string },
  guard: SQL,
  slots: { columns: SQL[]; values: SQL[] },
): Promise<boolean> {
  const { ownerId, listId, changes, now, id, also, stored } = item;
  const stamp = now.toISOString();
  const key = await listKeyInsert(db, listId);
  const counted = async (tx: Database) =>
    (
      await queryRows(
        tx,
        sql`update ${listSchemas} set item_count = item_count + 1, version = ${nextVersion}
            where ${guard} returning id`,
      )
    ).length > 0;
  const write = async (tx: Database) => {
    await tx.execute(
      sql`insert into ${listItems} (id, schema_id, owner_id, data, created_at, updated_at${key.column}${sql.join(slots.columns)}${STORED_JSON_COLUMNS})
          values (${id}, ${listId}, ${ownerId}, ${JSON.stringify(changes.kept)}::jsonb,
            ${stamp}::timestamptz, ${stamp}::timestamptz${key.value}${sql.join(slots.values)}${storedJsonValues(stored)})`,
    );
    await tx.execute(itemChangesAfter('list_item.created', ownerId, listId, [{ id }]));
    // `also` reads the CTE `inserted` of the Postgres form's statement
    if (also) await tx.execute(sql`with inserted as (select ${id}::text as id) ${also}`);
  };
  if (isTransaction(db)) {
    if (!(await counted(db))) return false;
    await write(db);
    return true;
  }
  return transactionOr(
    db,
    async (tx) => {
      await write(tx);
      if (!(await counted(tx))) tx.rollback();
      return true;
    },
    () => false,
  );
}

/**
 * updateItemRow: undefined when the guard failed or the record is gone. `values` are over the
 * row `li`; `fieldsSeen` are the fields the guard compares.
 */
export async function updateItemRowOnCitus(
  db: Database,
  ownerId: number,
  listId: string,
  id: string,
  guard: SQL,
  fieldsSeen: readonly StoredField[],
  values: UpdatedValues,
): Promise<ItemRow | undefined> {
  return inTransaction(db, async (tx) => {
    const [bumped] = await queryRows<{ layout: number }>(
      tx,
      sql`update ${listSchemas} set version = ${nextVersion} where ${guard} returning layout`,
    );
    if (!bumped) return undefined;
    const [row] = await queryRows<StoredItemRow & { previous: string }>(
      tx,
      sql`update ${listItems} li
            set ${updatedRecord(fieldsSeen, values, sql`${bumped.layout}::int`)}
          from (select r.id, ${PREVIOUS_TEXT('r')} as previous from ${listItems} r
                where r.owner_id = ${ownerId} and r.id = ${id} for update) before
          where li.owner_id = ${ownerId} and li.id = before.id
          returning li.id, li.data, li.created_at, li.updated_at${slotColumnsSql('li')}, before.previous`,
    );
    if (!row) return undefined;
    await tx.execute(
      itemChangesAfter('list_item.updated', ownerId, listId, [{ id, previous: row.previous }]),
    );
    return toItemRow(row);
  });
}

/** deleteItemRow: false when the record was already gone. */
export async function deleteItemRowOnCitus(
  db: Database,
  ownerId: number,
  listId: string,
  id: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select 1 from ${listSchemas} where owner_id = ${ownerId} and id = ${listId}
          for no key update`,
    );
    const [gone] = await queryRows<{ schema_id: string; previous: string }>(
      tx,
      sql`delete from ${listItems} li
          using (select r.id, ${PREVIOUS_TEXT('r')} as previous from ${listItems} r
                 where r.owner_id = ${ownerId} and r.id = ${id} for update) before
          where li.owner_id = ${ownerId} and li.id = before.id
          returning li.schema_id, before.previous`,
    );
    if (!gone) return false;
    await tx.execute(
      sql`update ${listSchemas} set item_count = greatest(item_count - 1, 0), version = ${nextVersion}
          where owner_id = ${ownerId} and id = ${gone.schema_id}`,
    );
    await tx.execute(
      itemChangesAfter('list_item.deleted', ownerId, gone.schema_id, [
        { id, previous: gone.previous },
      ]),
    );
    return true;
  });
}
