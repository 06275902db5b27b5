-- Text slot indexes carry the sortable slots and timestamps (INCLUDE), so "string field =
-- value, order by a number / date / created_at" is one index-only scan of the matches plus a
-- top-N sort, instead of walking the sort index and filtering (1M-record list: 46 ms → 2.5 ms
-- cold; docs/records.md). Same names: drizzle-orm cannot express INCLUDE, so
-- src/db/schema/listItems.ts declares the key columns only.
DROP INDEX IF EXISTS "list_items_t1_idx";--> statement-breakpoint
CREATE INDEX "list_items_t1_idx" ON "list_items" USING btree ("schema_id","t1","id") INCLUDE ("n1","n2","n3","d1","d2","created_at","updated_at") WHERE "list_items"."t1" is not null;--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_t2_idx";--> statement-breakpoint
CREATE INDEX "list_items_t2_idx" ON "list_items" USING btree ("schema_id","t2","id") INCLUDE ("n1","n2","n3","d1","d2","created_at","updated_at") WHERE "list_items"."t2" is not null;--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_t3_idx";--> statement-breakpoint
CREATE INDEX "list_items_t3_idx" ON "list_items" USING btree ("schema_id","t3","id") INCLUDE ("n1","n2","n3","d1","d2","created_at","updated_at") WHERE "list_items"."t3" is not null;
