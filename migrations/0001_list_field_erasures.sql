CREATE TABLE "list_field_erasures" (
	"schema_id" text NOT NULL,
	"slug" text NOT NULL,
	"slot" text,
	"cursor_created_at" timestamp with time zone,
	"cursor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"touched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "list_field_erasures_schema_id_slug_pk" PRIMARY KEY("schema_id","slug")
);
--> statement-breakpoint
ALTER TABLE "list_field_erasures" ADD CONSTRAINT "list_field_erasures_schema_id_list_schemas_id_fk" FOREIGN KEY ("schema_id") REFERENCES "public"."list_schemas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "list_schemas_deleted_idx" ON "list_schemas" USING btree ("deleted_at") WHERE "list_schemas"."deleted_at" is not null;