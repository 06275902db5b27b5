/**
 * For the online placement, run just before `create_distributed_table_concurrently('changes')`
 * (citusOnlineDistribution.ts). That function first turns the table into a Citus local table
 * (its rows stay on the coordinator under a shard's name) and only then copies them out. The
 * turning drops the identity of `seq` together with its sequence and gives the new shell
 * table a new `changes_seq_seq`, made from the identity's definition: it starts again at
 * its START WITH, 1. Every feed write draws its `seq` from the coordinator's sequence
 * (changes/feedStamp.ts), which would hand out 1, 2, 3, … again: the `seq`s the account's rows already
 * hold, a duplicate of the feed's key (`changes_account_id_seq_pk_<shard>`) for every write
 * until the new sequence passes them. So the turning is done here, in one transaction, with
 * the table locked against writes while it runs (it renames, it copies no row) and the new
 * sequence put where the old one stood; `create_distributed_table_concurrently` then finds a
 * Citus local table and goes on from there. (The workers' copies of the sequence are not
 * used.)
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
