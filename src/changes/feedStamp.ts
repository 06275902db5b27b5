import { sql } from 'drizzle-orm';

/**
 * The transaction id a change row carries (`changes.txid`), stated in the select list of every
 * statement that writes the feed. A reader's batch is bounded by a snapshot of the server that
 * holds the account's rows (readChanges.ts), so the id must be that server's.
 *
 * On Postgres that is the column's default too. On Citus the account's rows live in one shard
 * on one worker, and the reader's page query runs there: the id must be the worker
 * transaction's. Citus evaluates the functions of an `INSERT … VALUES` on the coordinator (a
 * different counter), but sends the SELECT of an `INSERT … SELECT` that reads a row of the
 * owner's colocated tables to the worker with the function in it, and evaluates it there. So
 * every feed write is an `INSERT … SELECT` over a row of the owner (the list, the bot), never
 * VALUES, with the owner's id a constant (infra/db/ownerConstant.ts) so that the SELECT runs
 * on that one shard, on the connection of the transaction's writes there. A transaction that
 * also wrote on other nodes commits there in two phases; until its `COMMIT PREPARED` reaches
 * this worker, the worker's snapshots show it as running, so a batch never holds half of it —
 * the Postgres rule, on the worker.
 *
 * `seq` is the identity's: on Citus the coordinator draws it when it writes the rows the
 * worker's SELECT returned, which is after the statement that wrote the record took its lock.
 * Two transactions that queue on one record so get their `seq` in commit order, as on
 * Postgres. test/citus/changeFeedOnCitus.test.ts checks both on a cluster: every change row's
 * `txid` is the transaction that wrote it on its worker.
 */
export const FEED_TXID = sql`pg_current_xact_id()`;
