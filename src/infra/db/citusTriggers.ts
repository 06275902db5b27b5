/**
 * The row triggers a Citus database does without, dropped by the placement step before it
 * places anything (citusDistribution.ts), on a fresh database and on one an earlier version
 * placed; a database without them costs the look-ups. Citus runs a trigger on a distributed
 * table only with `citus.enable_unsafe_triggers`, since it cannot check what the trigger touches.
 *
 * - `list_schemas_next_layout`, `list_schemas_keep_layout` (migration 0009): the list writes
 *   keep the layouts themselves (lists/schemas/listLayouts.ts).
 * - `changes_stamp_here`, which earlier placements added to stamp each change row on its
 *   worker: every feed write now states the worker's transaction id in a SELECT that Citus runs
 *   there (changes/feedStamp.ts), and `seq` comes from the coordinator's sequence. That
 *   sequence is set past every `seq` the workers' copies handed out first, with writes to
 *   `changes` held meanwhile, so the feed's ids keep rising.
 *
 * The contact stats row trigger stays (citusContactStats.ts): the bot platform writes contacts
 * by SQL, which only a trigger sees.
 */
export const CITUS_DROP_TRIGGERS = `DO $$
BEGIN
  -- Citus refuses even the drop of a trigger on a distributed table without it
  PERFORM set_config('citus.enable_unsafe_triggers', 'on', true);
  IF EXISTS (SELECT 1 FROM pg_trigger
             WHERE tgrelid = 'changes'::regclass AND tgname = 'changes_stamp_here') THEN
    LOCK TABLE changes IN EXCLUSIVE MODE;
    DROP TRIGGER changes_stamp_here ON changes;
    PERFORM setval(pg_get_serial_sequence('changes', 'seq'), greatest(
      (SELECT last_value FROM changes_seq_seq),
      (SELECT coalesce(max(seq), 0) FROM changes),
      (SELECT purged_seq FROM change_feed_state)));
  END IF;
  IF EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'list_schemas'::regclass
             AND tgname IN ('list_schemas_next_layout', 'list_schemas_keep_layout')) THEN
    DROP TRIGGER IF EXISTS list_schemas_next_layout ON list_schemas;
    DROP TRIGGER IF EXISTS list_schemas_keep_layout ON list_schemas;
  END IF;
END $$`;
