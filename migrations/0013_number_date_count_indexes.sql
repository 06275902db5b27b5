-- Narrow count indexes for the number and date slots (docs/records.md). On a database with
-- records, `npm run migrate` builds each with CREATE INDEX CONCURRENTLY before this runs
-- (src/infra/db/onlineIndexes.ts), so IF NOT EXISTS finds them built and writes go on.
CREATE INDEX IF NOT EXISTS "list_items_n1_count_idx" ON "list_items" USING btree ("owner_id","schema_id","n1") WHERE "list_items"."n1" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_n2_count_idx" ON "list_items" USING btree ("owner_id","schema_id","n2") WHERE "list_items"."n2" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_n3_count_idx" ON "list_items" USING btree ("owner_id","schema_id","n3") WHERE "list_items"."n3" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_d1_count_idx" ON "list_items" USING btree ("owner_id","schema_id","d1") WHERE "list_items"."d1" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_d2_count_idx" ON "list_items" USING btree ("owner_id","schema_id","d2") WHERE "list_items"."d2" is not null;