-- The tenant key in every key (docs/scaling.md, "Distribution on Citus"): owner_id becomes NOT
-- NULL and joins every primary key and unique index, and every foreign key between tenant
-- tables; it leads every index of list_items and contacts the request path reads.
--
-- Written to be quick on a large database: on Postgres, `npm run migrate` first does the slow
-- parts outside this transaction (src/infra/db/ownerKeys.ts): it fills owner_id in batches,
-- proves it with a validated CHECK, and builds every index below marked "online" with
-- CREATE INDEX CONCURRENTLY under its final definition. What is left here is catalog work —
-- each "online" CREATE INDEX finds its index built — plus one scan per table that finds no
-- row to fill. On a fresh or embedded database this file alone does everything.
--
-- 1. Owners of rows written before migration 0011 (none left after the online fill).
UPDATE "list_items" i SET "owner_id" = s."owner_id" FROM "list_schemas" s
  WHERE i."owner_id" IS NULL AND s."id" = i."schema_id";--> statement-breakpoint
UPDATE "contact_variables" v SET "owner_id" = c."owner_id" FROM "contacts" c
  WHERE v."owner_id" IS NULL AND c."id" = v."contact_id";--> statement-breakpoint
UPDATE "list_field_erasures" e SET "owner_id" = s."owner_id" FROM "list_schemas" s
  WHERE e."owner_id" IS NULL AND s."id" = e."schema_id";--> statement-breakpoint
-- Layouts: one row per field change of a list. A reclaimed list's row is gone; its owner is
-- the account of its change events, and a layout no event refers to is no longer needed.
ALTER TABLE "list_layouts" ADD COLUMN "owner_id" bigint;--> statement-breakpoint
UPDATE "list_layouts" l SET "owner_id" = s."owner_id" FROM "list_schemas" s
  WHERE s."id" = l."schema_id";--> statement-breakpoint
UPDATE "list_layouts" l SET "owner_id" = c."account_id"
  FROM (SELECT DISTINCT "schema_id", "account_id" FROM "changes"
        WHERE "schema_id" IN (SELECT "schema_id" FROM "list_layouts" WHERE "owner_id" IS NULL)) c
  WHERE l."owner_id" IS NULL AND c."schema_id" = l."schema_id";--> statement-breakpoint
DELETE FROM "list_layouts" WHERE "owner_id" IS NULL;--> statement-breakpoint
-- 2. NOT NULL: with the online step's validated CHECK, Postgres skips the table scan.
ALTER TABLE "list_items" ALTER COLUMN "owner_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "list_items" DROP CONSTRAINT IF EXISTS "list_items_owner_id_not_null";--> statement-breakpoint
ALTER TABLE "contact_variables" ALTER COLUMN "owner_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_variables" DROP CONSTRAINT IF EXISTS "contact_variables_owner_id_not_null";--> statement-breakpoint
ALTER TABLE "list_field_erasures" ALTER COLUMN "owner_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "list_field_erasures" DROP CONSTRAINT IF EXISTS "list_field_erasures_owner_id_not_null";--> statement-breakpoint
ALTER TABLE "list_layouts" ALTER COLUMN "owner_id" SET NOT NULL;--> statement-breakpoint
-- 3. Foreign keys name the old primary keys: off until the new keys stand.
ALTER TABLE "list_field_erasures" DROP CONSTRAINT "list_field_erasures_schema_id_list_schemas_id_fk";--> statement-breakpoint
ALTER TABLE "contact_variables" DROP CONSTRAINT "contact_variables_contact_id_contacts_id_fk";--> statement-breakpoint
ALTER TABLE "contacts" DROP CONSTRAINT "contacts_bot_id_bots_id_fk";--> statement-breakpoint
-- 4. Primary keys with the owner (online). Second where rows are also looked up by id alone
-- (the 403-or-404 question after the caller's own rows missed), so one index serves both.
CREATE UNIQUE INDEX IF NOT EXISTS "bots_owner_pkey" ON "bots" USING btree ("id","owner_id");--> statement-breakpoint
ALTER TABLE "bots" DROP CONSTRAINT "bots_pkey";--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_pkey" PRIMARY KEY USING INDEX "bots_owner_pkey";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "list_schemas_owner_pkey" ON "list_schemas" USING btree ("id","owner_id");--> statement-breakpoint
ALTER TABLE "list_schemas" DROP CONSTRAINT "list_schemas_pkey";--> statement-breakpoint
ALTER TABLE "list_schemas" ADD CONSTRAINT "list_schemas_pkey" PRIMARY KEY USING INDEX "list_schemas_owner_pkey";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "list_items_owner_pkey" ON "list_items" USING btree ("id","owner_id");--> statement-breakpoint
ALTER TABLE "list_items" DROP CONSTRAINT "list_items_pkey";--> statement-breakpoint
ALTER TABLE "list_items" ADD CONSTRAINT "list_items_pkey" PRIMARY KEY USING INDEX "list_items_owner_pkey";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "list_field_erasures_owner_pkey" ON "list_field_erasures" USING btree ("owner_id","schema_id","slug");--> statement-breakpoint
ALTER TABLE "list_field_erasures" DROP CONSTRAINT "list_field_erasures_schema_id_slug_pk";--> statement-breakpoint
ALTER TABLE "list_field_erasures" ADD CONSTRAINT "list_field_erasures_pkey" PRIMARY KEY USING INDEX "list_field_erasures_owner_pkey";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "contacts_owner_pkey" ON "contacts" USING btree ("id","owner_id");--> statement-breakpoint
ALTER TABLE "contacts" DROP CONSTRAINT "contacts_pkey";--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_pkey" PRIMARY KEY USING INDEX "contacts_owner_pkey";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "contact_variables_owner_pkey" ON "contact_variables" USING btree ("id","owner_id");--> statement-breakpoint
ALTER TABLE "contact_variables" DROP CONSTRAINT "contact_variables_pkey";--> statement-breakpoint
ALTER TABLE "contact_variables" ADD CONSTRAINT "contact_variables_pkey" PRIMARY KEY USING INDEX "contact_variables_owner_pkey";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "contact_stats_owner_pkey" ON "contact_stats" USING btree ("bot_id","owner_id");--> statement-breakpoint
ALTER TABLE "contact_stats" DROP CONSTRAINT "contact_stats_pkey";--> statement-breakpoint
ALTER TABLE "contact_stats" ADD CONSTRAINT "contact_stats_pkey" PRIMARY KEY USING INDEX "contact_stats_owner_pkey";--> statement-breakpoint
ALTER TABLE "list_layouts" DROP CONSTRAINT "list_layouts_schema_id_layout_pk";--> statement-breakpoint
ALTER TABLE "list_layouts" ADD CONSTRAINT "list_layouts_pkey" PRIMARY KEY ("owner_id","schema_id","layout");--> statement-breakpoint
-- 5. Unique and secondary indexes, owner first (online, built as "<name>_owner" and renamed).
CREATE UNIQUE INDEX IF NOT EXISTS "contacts_messenger_key_idx_owner" ON "contacts" USING btree ("owner_id","bot_id","messenger","messenger_key");--> statement-breakpoint
DROP INDEX "contacts_messenger_key_idx";--> statement-breakpoint
ALTER INDEX "contacts_messenger_key_idx_owner" RENAME TO "contacts_messenger_key_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contacts_bot_page_idx_owner" ON "contacts" USING btree ("owner_id","bot_id","id","created_at") WHERE NOT "preview";--> statement-breakpoint
DROP INDEX "contacts_bot_page_idx";--> statement-breakpoint
ALTER INDEX "contacts_bot_page_idx_owner" RENAME TO "contacts_bot_page_idx";--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "contact_variables_contact_name_idx_owner" ON "contact_variables" USING btree ("owner_id","contact_id","name");--> statement-breakpoint
DROP INDEX "contact_variables_contact_name_idx";--> statement-breakpoint
ALTER INDEX "contact_variables_contact_name_idx_owner" RENAME TO "contact_variables_contact_name_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_created_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","created_at","id");--> statement-breakpoint
DROP INDEX "list_items_created_idx";--> statement-breakpoint
ALTER INDEX "list_items_created_idx_owner" RENAME TO "list_items_created_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_updated_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","updated_at","id");--> statement-breakpoint
DROP INDEX "list_items_updated_idx";--> statement-breakpoint
ALTER INDEX "list_items_updated_idx_owner" RENAME TO "list_items_updated_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_contact_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","contact_id","created_at","id") WHERE "contact_id" IS NOT NULL;--> statement-breakpoint
DROP INDEX "list_items_contact_idx";--> statement-breakpoint
ALTER INDEX "list_items_contact_idx_owner" RENAME TO "list_items_contact_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_bot_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","bot_id","created_at","id") WHERE "bot_id" IS NOT NULL;--> statement-breakpoint
DROP INDEX "list_items_bot_idx";--> statement-breakpoint
ALTER INDEX "list_items_bot_idx_owner" RENAME TO "list_items_bot_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_t1_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","t1","id") INCLUDE ("n1","n2","n3","d1","d2","created_at","updated_at") WHERE "t1" IS NOT NULL;--> statement-breakpoint
DROP INDEX "list_items_t1_idx";--> statement-breakpoint
ALTER INDEX "list_items_t1_idx_owner" RENAME TO "list_items_t1_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_t2_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","t2","id") INCLUDE ("n1","n2","n3","d1","d2","created_at","updated_at") WHERE "t2" IS NOT NULL;--> statement-breakpoint
DROP INDEX "list_items_t2_idx";--> statement-breakpoint
ALTER INDEX "list_items_t2_idx_owner" RENAME TO "list_items_t2_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_t3_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","t3","id") INCLUDE ("n1","n2","n3","d1","d2","created_at","updated_at") WHERE "t3" IS NOT NULL;--> statement-breakpoint
DROP INDEX "list_items_t3_idx";--> statement-breakpoint
ALTER INDEX "list_items_t3_idx_owner" RENAME TO "list_items_t3_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_t1_count_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","t1") WHERE "t1" IS NOT NULL;--> statement-breakpoint
DROP INDEX "list_items_t1_count_idx";--> statement-breakpoint
ALTER INDEX "list_items_t1_count_idx_owner" RENAME TO "list_items_t1_count_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_t2_count_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","t2") WHERE "t2" IS NOT NULL;--> statement-breakpoint
DROP INDEX "list_items_t2_count_idx";--> statement-breakpoint
ALTER INDEX "list_items_t2_count_idx_owner" RENAME TO "list_items_t2_count_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_t3_count_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","t3") WHERE "t3" IS NOT NULL;--> statement-breakpoint
DROP INDEX "list_items_t3_count_idx";--> statement-breakpoint
ALTER INDEX "list_items_t3_count_idx_owner" RENAME TO "list_items_t3_count_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_n1_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","n1","id") WHERE "n1" IS NOT NULL;--> statement-breakpoint
DROP INDEX "list_items_n1_idx";--> statement-breakpoint
ALTER INDEX "list_items_n1_idx_owner" RENAME TO "list_items_n1_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_n2_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","n2","id") WHERE "n2" IS NOT NULL;--> statement-breakpoint
DROP INDEX "list_items_n2_idx";--> statement-breakpoint
ALTER INDEX "list_items_n2_idx_owner" RENAME TO "list_items_n2_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_n3_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","n3","id") WHERE "n3" IS NOT NULL;--> statement-breakpoint
DROP INDEX "list_items_n3_idx";--> statement-breakpoint
ALTER INDEX "list_items_n3_idx_owner" RENAME TO "list_items_n3_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_d1_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","d1","id") WHERE "d1" IS NOT NULL;--> statement-breakpoint
DROP INDEX "list_items_d1_idx";--> statement-breakpoint
ALTER INDEX "list_items_d1_idx_owner" RENAME TO "list_items_d1_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_d2_idx_owner" ON "list_items" USING btree ("owner_id","schema_id","d2","id") WHERE "d2" IS NOT NULL;--> statement-breakpoint
DROP INDEX "list_items_d2_idx";--> statement-breakpoint
ALTER INDEX "list_items_d2_idx_owner" RENAME TO "list_items_d2_idx";--> statement-breakpoint
-- 6. Foreign keys between tenant tables carry the owner. NOT VALID here (no scan under this
-- transaction's locks); validated right after it (ownerKeys.ts), which locks no writer out.
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_bot_fk" FOREIGN KEY ("owner_id","bot_id") REFERENCES "bots"("owner_id","id") NOT VALID;--> statement-breakpoint
ALTER TABLE "contact_variables" ADD CONSTRAINT "contact_variables_contact_fk" FOREIGN KEY ("owner_id","contact_id") REFERENCES "contacts"("owner_id","id") ON DELETE CASCADE NOT VALID;--> statement-breakpoint
ALTER TABLE "list_field_erasures" ADD CONSTRAINT "list_field_erasures_list_fk" FOREIGN KEY ("owner_id","schema_id") REFERENCES "list_schemas"("owner_id","id") ON DELETE CASCADE NOT VALID;--> statement-breakpoint
-- 7. Triggers write the new keys.
CREATE OR REPLACE FUNCTION list_schemas_keep_layout() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_layouts (owner_id, schema_id, layout, fields)
  VALUES (NEW.owner_id, NEW.id, NEW.layout, NEW.fields) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION contacts_stats_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_stats AS s (owner_id, bot_id, version, live_count)
  SELECT owner_id, bot_id, 1, count(*) FILTER (WHERE NOT preview)
  FROM new_rows GROUP BY owner_id, bot_id
  ON CONFLICT (owner_id, bot_id) DO UPDATE
    SET version = s.version + 1, live_count = s.live_count + excluded.live_count;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION contacts_stats_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_stats AS s (owner_id, bot_id, version, live_count)
  SELECT owner_id, bot_id, 1, -count(*) FILTER (WHERE NOT preview)
  FROM old_rows GROUP BY owner_id, bot_id
  ON CONFLICT (owner_id, bot_id) DO UPDATE
    SET version = s.version + 1, live_count = s.live_count + excluded.live_count;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION contacts_stats_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
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
  INSERT INTO contact_stats AS s (owner_id, bot_id, version, live_count)
  SELECT owner_id, bot_id, 1, sum(d) FROM deltas GROUP BY owner_id, bot_id
  ON CONFLICT (owner_id, bot_id) DO UPDATE
    SET version = s.version + 1, live_count = s.live_count + excluded.live_count;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- 8. The background fill of migration 0011 is done for good.
DROP TABLE "owner_backfills";
