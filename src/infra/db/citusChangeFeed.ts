/**
 * The change feed on Citus (docs/scaling.md, "The change feed on Citus"). On Postgres a change
 * row's `txid` is the writing transaction's id and a reader's batch bounds are snapshots of
 * the same server. On Citus the `changes` rows of an account live in one shard, on one
 * worker, and the page query (`account_id = …`) runs there as one single-shard statement:
 * its `pg_current_snapshot()` is that worker's. So the rows must carry that worker's
 * transaction id too. Citus does not say where a column default is evaluated: an
 * `INSERT … VALUES` gets `pg_current_xact_id()` and `nextval()` from the coordinator (a
 * different counter), an `INSERT … SELECT` that runs on the worker gets the worker's. On a
 * Citus database the distribution step adds this row trigger, which runs on the shard and
 * stamps both there, whatever the statement's form:
 *
 * - `txid`: the worker transaction's id. A transaction that also wrote on other nodes commits
 *   there in two phases; until its `COMMIT PREPARED` reaches this worker, the worker's
 *   snapshots show it as running, so a batch never holds half of it — exactly the Postgres
 *   rule, on the worker.
 * - `seq`: from the worker's copy of the sequence, taken when the row is written (after the
 *   locks of the statement's earlier parts), so two transactions that queue on one record get
 *   their `seq` in commit order, as on Postgres.
 */
export const CITUS_CHANGE_FEED_SQL = [
  `CREATE OR REPLACE FUNCTION changes_stamp_here() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.txid := pg_current_xact_id();
  NEW.seq := nextval('changes_seq_seq');
  RETURN NEW;
END $$`,
  `CREATE TRIGGER changes_stamp_here BEFORE INSERT ON changes
  FOR EACH ROW EXECUTE FUNCTION changes_stamp_here()`,
];
