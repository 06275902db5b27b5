import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../infra/db/client.js';

/** Small batches: each is a short transaction that never holds writers up for long. */
const BATCH = 5_000;

/**
 * Deletes changes older than `retentionDays`, a batch per transaction, and moves the purge
 * mark in the same transaction: the highest transaction and `seq` deleted, which tell an
 * expired cursor apart (readChanges.ts). Returns how many it deleted. By primary key, not by
 * `ctid`: Citus runs the batch's select on every shard first, then deletes those keys shard by
 * shard; it cannot plan a `ctid` delete whose ids come from a subquery.
 */
export async function purgeOldChanges(
  db: Pick<Database, 'execute'>,
  retentionDays: number,
  signal?: AbortSignal,
): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`with gone as (
            delete from changes where (account_id, seq) in (
              select account_id, seq from changes
              where occurred_at < now() - make_interval(days => ${retentionDays})
              limit ${BATCH})
            returning txid, seq),
          mark as (
            update change_feed_state set
              purged_txid = greatest(purged_txid, (select max(txid) from gone)),
              purged_seq = greatest(purged_seq, (select max(seq) from gone))
            where exists (select from gone))
          select count(*)::int as n from gone`,
    );
    const n = row?.n ?? 0;
    total += n;
    if (n < BATCH || signal?.aborted) return total;
  }
}
