CREATE TABLE "change_feed_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"purged_txid" "xid8" DEFAULT '0'::xid8 NOT NULL,
	"purged_seq" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "changes" (
	"account_id" bigint NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "changes_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"type" text NOT NULL,
	"schema_id" text,
	"bot_id" bigint,
	"item_id" text,
	"contact_id" bigint,
	"layout" integer,
	"data" json,
	CONSTRAINT "changes_account_id_seq_pk" PRIMARY KEY("account_id","seq")
);
--> statement-breakpoint
CREATE TABLE "list_layouts" (
	"schema_id" text NOT NULL,
	"layout" integer NOT NULL,
	"fields" jsonb NOT NULL,
	CONSTRAINT "list_layouts_schema_id_layout_pk" PRIMARY KEY("schema_id","layout")
);
--> statement-breakpoint
ALTER TABLE "list_schemas" ADD COLUMN "layout" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "changes_account_txid_idx" ON "changes" USING btree ("account_id","txid","seq");--> statement-breakpoint
CREATE INDEX "changes_occurred_brin" ON "changes" USING brin ("occurred_at");--> statement-breakpoint
-- The change feed shows a list item with the fields it was written under: every `fields` a
-- list has had is kept as a numbered layout. Triggers, so every path that writes lists (the
-- API, the operator's SQL, test fixtures) keeps them; `UPDATE OF fields` leaves item writes,
-- which touch the list row for its counters, free of any trigger.
CREATE FUNCTION list_schemas_next_layout() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.fields IS DISTINCT FROM OLD.fields THEN
    NEW.layout := OLD.layout + 1;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE FUNCTION list_schemas_keep_layout() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_layouts (schema_id, layout, fields)
  VALUES (NEW.id, NEW.layout, NEW.fields) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER list_schemas_next_layout BEFORE UPDATE OF fields ON list_schemas
  FOR EACH ROW EXECUTE FUNCTION list_schemas_next_layout();
--> statement-breakpoint
CREATE TRIGGER list_schemas_keep_layout AFTER INSERT OR UPDATE OF fields ON list_schemas
  FOR EACH ROW EXECUTE FUNCTION list_schemas_keep_layout();
--> statement-breakpoint
-- lists made before the feed existed: their current fields are layout 0
INSERT INTO "list_layouts" ("schema_id", "layout", "fields") SELECT "id", 0, "fields" FROM "list_schemas";--> statement-breakpoint
INSERT INTO "change_feed_state" ("id") VALUES (1);
