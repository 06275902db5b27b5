/**
 * Citus cannot run the statement-level triggers with transition tables that keep
 * `contact_stats` on Postgres (migration 0003): on a distributed table the trigger runs on a
 * shard, where the transition table is not there ("executor could not find named tuplestore").
 * On a Citus database the distribution step puts one row-level trigger in their place. It
 * writes the stats row of the contact's own owner, which lives on the same worker as the
 * contact (the tables are colocated by owner), so the write stays local to that worker.
 *
 * Differences from the statement triggers: `version` goes up once per changed row instead of
 * once per statement (it only has to change), and a batch touches its bot's stats row once
 * per row.
 */
/** [the function, its trigger]: the placement step may create them at different moments. */
export const CITUS_CONTACT_STATS_SQL = [
  `CREATE OR REPLACE FUNCTION contacts_stats_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.bot_id, OLD.owner_id, OLD.preview, OLD.created_at)
      IS NOT DISTINCT FROM (NEW.bot_id, NEW.owner_id, NEW.preview, NEW.created_at) THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO contact_stats AS s (owner_id, bot_id, version, live_count)
    VALUES (OLD.owner_id, OLD.bot_id, 1, -(NOT OLD.preview)::int)
    ON CONFLICT (owner_id, bot_id) DO UPDATE
      SET version = s.version + 1, live_count = s.live_count + excluded.live_count;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO contact_stats AS s (owner_id, bot_id, version, live_count)
    VALUES (NEW.owner_id, NEW.bot_id, 1, (NOT NEW.preview)::int)
    ON CONFLICT (owner_id, bot_id) DO UPDATE
      SET version = s.version + 1, live_count = s.live_count + excluded.live_count;
  END IF;
  RETURN NULL;
END $$`,
  `CREATE TRIGGER contacts_stats_row
  AFTER INSERT OR DELETE OR UPDATE OF bot_id, owner_id, preview, created_at ON contacts
  FOR EACH ROW EXECUTE FUNCTION contacts_stats_row()`,
];

/**
 * The statement triggers the row trigger replaces. They go before `contacts` is placed: its
 * rows are copied into the shards by inserts, which would fire them there.
 */
export const DROP_POSTGRES_CONTACT_STATS_TRIGGERS = [
  'DROP TRIGGER IF EXISTS contacts_stats_insert ON contacts',
  'DROP TRIGGER IF EXISTS contacts_stats_delete ON contacts',
  'DROP TRIGGER IF EXISTS contacts_stats_update ON contacts',
];
