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

/**
 * For the online placement, run just before `create_distributed_table_concurrently('changes')`
 * (citusOnlineDistribution.ts). That function first turns the table into a Citus local table
 * (its rows stay on the coordinator under a shard's name) and only then copies them out. The
 * turning drops the identity of `seq` together with its sequence and gives the new shell
 * table a new `changes_seq_seq`, made from the identity's definition: it starts again at
 * its START WITH, 1. Until the copy's switch the coordinator's shard takes every write, and
 * the feed's trigger there hands out 1, 2, 3, … again: the `seq`s the account's rows already
 * hold, a duplicate of the feed's key (`changes_account_id_seq_pk_<shard>`) for every write
 * until the new sequence passes them. So the turning is done here, in one transaction, with
 * the table locked against writes while it runs (it renames, it copies no row) and the new
 * sequence put where the old one stood; `create_distributed_table_concurrently` then finds a
 * Citus local table and goes on from there. (The workers' copies are not concerned: Citus
 * moves each to its node's own range, `groupid << 48` on, when it makes them.)
 *
 * A table that is already a Citus local table (a placement stopped after the turning, by this
 * step or by Citus's own, which restarted the sequence) gets its sequence set past every `seq`
 * ever handed out: the rows still there and the purge mark, which covers the rows purged. A
 * distributed table is left alone.
 */
export const CITUS_CHANGES_TO_LOCAL_KEEPING_SEQ = `DO $$
DECLARE
  handed_out bigint;
BEGIN
  IF EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'changes'::regclass) THEN
    -- a Citus local table: no distribution column, not a reference table, no colocation
    IF EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = 'changes'::regclass
               AND partkey IS NULL AND repmodel <> 't' AND colocationid = 0) THEN
      LOCK TABLE changes IN ACCESS EXCLUSIVE MODE;
      PERFORM setval(pg_get_serial_sequence('changes', 'seq'), greatest(
        (SELECT last_value FROM changes_seq_seq),
        (SELECT coalesce(max(seq), 0) FROM changes),
        (SELECT purged_seq FROM change_feed_state)));
    END IF;
    RETURN;
  END IF;
  LOCK TABLE changes IN ACCESS EXCLUSIVE MODE;
  SELECT last_value INTO handed_out FROM changes_seq_seq;
  PERFORM citus_add_local_table_to_metadata('changes');
  PERFORM setval(pg_get_serial_sequence('changes', 'seq'), handed_out);
END $$`;
