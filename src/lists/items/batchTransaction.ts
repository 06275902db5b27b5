import { sql, TransactionRollbackError, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../infra/db/client.js';
import { listSchemas } from '../../infra/db/schema/listSchemas.js';
import { nextVersion } from '../listVersion.js';

/** The transaction a `db.transaction` callback gets. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** `db.transaction`, where a `tx.rollback()` answers `rolledBack()` instead of throwing. */
export async function transactionOr<T>(
  db: Database,
  run: (tx: Transaction) => Promise<T>,
  rolledBack: () => T,
): Promise<T> {
  return db.transaction(run).catch((err: unknown) => {
    if (err instanceof TransactionRollbackError) return rolledBack();
    throw err;
  });
}

/**
 * Moves the list's counter by a batch's `inserted` records, and its version, under the list's
 * lock, with the write's guard repeated: the list changed after the batch's unlocked check
 * rolls the transaction back, records and events with it.
 */
export async function countInsertedBatch(
  tx: Transaction,
  guard: SQL,
  inserted: number,
): Promise<void> {
  const bumped = await queryRows(
    tx,
    sql`update ${listSchemas} set item_count = item_count + ${inserted}, version = ${nextVersion}
        where ${guard} returning id`,
  );
  if (bumped.length === 0) tx.rollback();
}
