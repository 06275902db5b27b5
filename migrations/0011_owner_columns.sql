CREATE TABLE "owner_backfills" (
	"table_name" text PRIMARY KEY NOT NULL,
	"done_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "list_items" ADD COLUMN "owner_id" bigint;--> statement-breakpoint
ALTER TABLE "list_field_erasures" ADD COLUMN "owner_id" bigint;--> statement-breakpoint
ALTER TABLE "contact_variables" ADD COLUMN "owner_id" bigint;