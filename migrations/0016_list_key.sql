-- Every list_items index names the list by `list_key` (8 bytes: a hash of schema_id, kept by
-- Postgres as a generated column) instead of the 36-character `schema_id`: an entry of a count
-- index is about half as wide, and counting a large share of a list reads half the pages
-- (docs/records.md, "Narrow list keys"). `list_schemas_list_key_idx` keeps the hash unique
-- among an owner's lists, so `owner_id` and `list_key` name one list. Same index names and
-- INCLUDE lists as before (drizzle-orm cannot express INCLUDE, so the schema file declares
-- the key columns only). The old indexes go first, so adding the column rewrites the table
-- with its primary key only; the new ones are built after. This holds list_items' lock for
-- the whole migration (measured in docs/records.md).
DROP INDEX IF EXISTS "list_items_created_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_updated_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_contact_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_bot_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_t1_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_t2_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_t3_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_t1_count_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_t2_count_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_t3_count_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_n1_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_n2_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_n3_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_d1_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_d2_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_n1_count_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_n2_count_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_n3_count_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_d1_count_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_d2_count_idx";
--> statement-breakpoint
ALTER TABLE "list_items" ADD COLUMN "list_key" bigint GENERATED ALWAYS AS (hashtextextended(schema_id, 0)) STORED NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "list_schemas_list_key_idx" ON "list_schemas" USING btree ("owner_id",hashtextextended("id", 0));
--> statement-breakpoint
CREATE INDEX "list_items_created_idx" ON "list_items" USING btree ("owner_id","list_key","created_at","id") INCLUDE ("n1","n2","n3","d1","d2","contact_id","bot_id");
--> statement-breakpoint
CREATE INDEX "list_items_updated_idx" ON "list_items" USING btree ("owner_id","list_key","updated_at","id");
--> statement-breakpoint
CREATE INDEX "list_items_contact_idx" ON "list_items" USING btree ("owner_id","list_key","contact_id","created_at","id") WHERE "list_items"."contact_id" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_bot_idx" ON "list_items" USING btree ("owner_id","list_key","bot_id","created_at","id") WHERE "list_items"."bot_id" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_t1_idx" ON "list_items" USING btree ("owner_id","list_key","t1","id") INCLUDE ("n1","n2","n3","d1","d2","created_at","updated_at") WHERE "list_items"."t1" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_t2_idx" ON "list_items" USING btree ("owner_id","list_key","t2","id") INCLUDE ("n1","n2","n3","d1","d2","created_at","updated_at") WHERE "list_items"."t2" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_t3_idx" ON "list_items" USING btree ("owner_id","list_key","t3","id") INCLUDE ("n1","n2","n3","d1","d2","created_at","updated_at") WHERE "list_items"."t3" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_t1_count_idx" ON "list_items" USING btree ("owner_id","list_key","t1") WHERE "list_items"."t1" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_t2_count_idx" ON "list_items" USING btree ("owner_id","list_key","t2") WHERE "list_items"."t2" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_t3_count_idx" ON "list_items" USING btree ("owner_id","list_key","t3") WHERE "list_items"."t3" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_n1_idx" ON "list_items" USING btree ("owner_id","list_key","n1","id") INCLUDE ("n2","n3","d1","d2","created_at","updated_at") WHERE "list_items"."n1" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_n2_idx" ON "list_items" USING btree ("owner_id","list_key","n2","id") INCLUDE ("n1","n3","d1","d2","created_at","updated_at") WHERE "list_items"."n2" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_n3_idx" ON "list_items" USING btree ("owner_id","list_key","n3","id") INCLUDE ("n1","n2","d1","d2","created_at","updated_at") WHERE "list_items"."n3" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_d1_idx" ON "list_items" USING btree ("owner_id","list_key","d1","id") INCLUDE ("n1","n2","n3","d2","created_at","updated_at") WHERE "list_items"."d1" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_d2_idx" ON "list_items" USING btree ("owner_id","list_key","d2","id") INCLUDE ("n1","n2","n3","d1","created_at","updated_at") WHERE "list_items"."d2" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_n1_count_idx" ON "list_items" USING btree ("owner_id","list_key","n1") WHERE "list_items"."n1" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_n2_count_idx" ON "list_items" USING btree ("owner_id","list_key","n2") WHERE "list_items"."n2" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_n3_count_idx" ON "list_items" USING btree ("owner_id","list_key","n3") WHERE "list_items"."n3" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_d1_count_idx" ON "list_items" USING btree ("owner_id","list_key","d1") WHERE "list_items"."d1" is not null;
--> statement-breakpoint
CREATE INDEX "list_items_d2_count_idx" ON "list_items" USING btree ("owner_id","list_key","d2") WHERE "list_items"."d2" is not null;
