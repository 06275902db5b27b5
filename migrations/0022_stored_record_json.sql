-- Records written once (src/lists/items/storedJson.ts, docs/records.md): each record may keep
-- its JSON as a read answers it, and the list's layout it was written for. Both nullable and
-- without a default, so adding them rewrites nothing: records written before keep NULL and
-- are written by each read as before. On a Citus database the columns go to every shard.
ALTER TABLE "list_items" ADD COLUMN "record_json" text;--> statement-breakpoint
ALTER TABLE "list_items" ADD COLUMN "record_layout" integer;