-- Number and date slot indexes carry the other number and date slots and the timestamps
-- (INCLUDE), as the text slot indexes do, and the list's created_at index carries every number,
-- date and link slot: a filter of several conditions is then counted and paged inside the
-- list's own index entries (index-only), never by reading heap pages shared with other lists'
-- records (docs/records.md, "Combined filters"). Same names as before: drizzle-orm cannot
-- express INCLUDE, so src/infra/db/schema/listItems.ts declares the key columns only. On a
-- database with records `npm run migrate` builds the `_next` indexes CONCURRENTLY first
-- (src/infra/db/onlineIndexes.ts), so this migration only swaps names.
CREATE INDEX IF NOT EXISTS "list_items_n1_idx_next" ON "list_items" USING btree ("owner_id","schema_id","n1","id") INCLUDE ("n2","n3","d1","d2","created_at","updated_at") WHERE "list_items"."n1" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_n2_idx_next" ON "list_items" USING btree ("owner_id","schema_id","n2","id") INCLUDE ("n1","n3","d1","d2","created_at","updated_at") WHERE "list_items"."n2" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_n3_idx_next" ON "list_items" USING btree ("owner_id","schema_id","n3","id") INCLUDE ("n1","n2","d1","d2","created_at","updated_at") WHERE "list_items"."n3" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_d1_idx_next" ON "list_items" USING btree ("owner_id","schema_id","d1","id") INCLUDE ("n1","n2","n3","d2","created_at","updated_at") WHERE "list_items"."d1" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_d2_idx_next" ON "list_items" USING btree ("owner_id","schema_id","d2","id") INCLUDE ("n1","n2","n3","d1","created_at","updated_at") WHERE "list_items"."d2" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_created_idx_next" ON "list_items" USING btree ("owner_id","schema_id","created_at","id") INCLUDE ("n1","n2","n3","d1","d2","contact_id","bot_id");--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_n1_idx";--> statement-breakpoint
ALTER INDEX "list_items_n1_idx_next" RENAME TO "list_items_n1_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_n2_idx";--> statement-breakpoint
ALTER INDEX "list_items_n2_idx_next" RENAME TO "list_items_n2_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_n3_idx";--> statement-breakpoint
ALTER INDEX "list_items_n3_idx_next" RENAME TO "list_items_n3_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_d1_idx";--> statement-breakpoint
ALTER INDEX "list_items_d1_idx_next" RENAME TO "list_items_d1_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_d2_idx";--> statement-breakpoint
ALTER INDEX "list_items_d2_idx_next" RENAME TO "list_items_d2_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_created_idx";--> statement-breakpoint
ALTER INDEX "list_items_created_idx_next" RENAME TO "list_items_created_idx";
