-- contact_stats is kept by statement-level triggers so that every path that writes contacts
-- (API upserts, imports, operator SQL) keeps the per-bot live count and paging version right.
-- One statement = one bump per bot, so a 5,000-row import batch touches each stats row once.
CREATE FUNCTION contacts_stats_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_stats AS s (bot_id, owner_id, version, live_count)
  SELECT bot_id, min(owner_id), 1, count(*) FILTER (WHERE NOT preview)
  FROM new_rows GROUP BY bot_id
  ON CONFLICT (bot_id) DO UPDATE
    SET version = s.version + 1, live_count = s.live_count + excluded.live_count;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION contacts_stats_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_stats AS s (bot_id, owner_id, version, live_count)
  SELECT bot_id, min(owner_id), 1, -count(*) FILTER (WHERE NOT preview)
  FROM old_rows GROUP BY bot_id
  ON CONFLICT (bot_id) DO UPDATE
    SET version = s.version + 1, live_count = s.live_count + excluded.live_count;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Only changes that can move a contact in or out of a listing, or along it, count: the
-- preview flag, created_at (date windows) and the bot / owner. Name, tags and the like do not.
CREATE FUNCTION contacts_stats_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH changed AS (
    SELECT o.bot_id AS old_bot, o.owner_id AS old_owner, o.preview AS old_preview,
           n.bot_id AS new_bot, n.owner_id AS new_owner, n.preview AS new_preview
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.bot_id, o.owner_id, o.preview, o.created_at)
          IS DISTINCT FROM (n.bot_id, n.owner_id, n.preview, n.created_at)
  ), deltas AS (
    SELECT old_bot AS bot_id, old_owner AS owner_id, -(NOT old_preview)::int AS d FROM changed
    UNION ALL
    SELECT new_bot, new_owner, (NOT new_preview)::int FROM changed
  )
  INSERT INTO contact_stats AS s (bot_id, owner_id, version, live_count)
  SELECT bot_id, min(owner_id), 1, sum(d) FROM deltas GROUP BY bot_id
  ON CONFLICT (bot_id) DO UPDATE
    SET version = s.version + 1, live_count = s.live_count + excluded.live_count;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contacts_stats_insert AFTER INSERT ON contacts
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION contacts_stats_after_insert();
--> statement-breakpoint
CREATE TRIGGER contacts_stats_delete AFTER DELETE ON contacts
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION contacts_stats_after_delete();
--> statement-breakpoint
CREATE TRIGGER contacts_stats_update AFTER UPDATE ON contacts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION contacts_stats_after_update();
--> statement-breakpoint
-- design/record-storage.md: keep the visibility map fresh so counts and the deferred join's
-- OFFSET stay index-only after bulk imports.
ALTER TABLE contacts SET (
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_analyze_scale_factor = 0.02,
  autovacuum_vacuum_insert_scale_factor = 0.02
);
--> statement-breakpoint
ALTER TABLE contact_variables SET (
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_vacuum_insert_scale_factor = 0.02
);
