-- The number and date slot indexes also INCLUDE t1, the slot of a list's first string field:
-- that string combined with number or date conditions (equality or `like` + a range, and the
-- three together) is then counted and paged inside the most selective range's own entries,
-- index-only, instead of reading every entry of the string's value or the records' heap pages
-- (docs/records.md, "Combined filters"). Only t1: a string is up to 500 characters (2,000
-- bytes), so one fits in a B-tree entry beside every number and date slot (the widest entry,
-- about 2,160 bytes, is tested under the 2,704-byte limit by
-- test/integration/listItemsWidestEntry.test.ts); two would not. Same names as before; on a
-- database with records `npm run migrate` builds the `_next` indexes CONCURRENTLY first
-- (src/infra/db/onlineIndexes.ts), so this migration only swaps names.
CREATE INDEX IF NOT EXISTS "list_items_n1_idx_next" ON "list_items" USING btree ("owner_id","list_key","n1","id") INCLUDE ("t1","n2","n3","d1","d2","created_at","updated_at") WHERE "list_items"."n1" is not null;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_n2_idx_next" ON "list_items" USING btree ("owner_id","list_key","n2","id") INCLUDE ("t1","n1","n3","d1","d2","created_at","updated_at") WHERE "list_items"."n2" is not null;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_n3_idx_next" ON "list_items" USING btree ("owner_id","list_key","n3","id") INCLUDE ("t1","n1","n2","d1","d2","created_at","updated_at") WHERE "list_items"."n3" is not null;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_d1_idx_next" ON "list_items" USING btree ("owner_id","list_key","d1","id") INCLUDE ("t1","n1","n2","n3","d2","created_at","updated_at") WHERE "list_items"."d1" is not null;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "list_items_d2_idx_next" ON "list_items" USING btree ("owner_id","list_key","d2","id") INCLUDE ("t1","n1","n2","n3","d1","created_at","updated_at") WHERE "list_items"."d2" is not null;
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_n1_idx";
--> statement-breakpoint
ALTER INDEX "list_items_n1_idx_next" RENAME TO "list_items_n1_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_n2_idx";
--> statement-breakpoint
ALTER INDEX "list_items_n2_idx_next" RENAME TO "list_items_n2_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_n3_idx";
--> statement-breakpoint
ALTER INDEX "list_items_n3_idx_next" RENAME TO "list_items_n3_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_d1_idx";
--> statement-breakpoint
ALTER INDEX "list_items_d1_idx_next" RENAME TO "list_items_d1_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "list_items_d2_idx";
--> statement-breakpoint
ALTER INDEX "list_items_d2_idx_next" RENAME TO "list_items_d2_idx";
