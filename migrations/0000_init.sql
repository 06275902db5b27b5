CREATE TABLE "accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"plan" text NOT NULL,
	"blocked" boolean DEFAULT false NOT NULL,
	"api_key_hash" text NOT NULL,
	"password_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_members" (
	"project_uuid" uuid NOT NULL,
	"account_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_members_project_uuid_account_id_pk" PRIMARY KEY("project_uuid","account_id")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"uuid" uuid PRIMARY KEY NOT NULL,
	"owner_id" bigint NOT NULL,
	"name" text NOT NULL,
	"list_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_uuid" uuid NOT NULL,
	"owner_id" bigint NOT NULL,
	"name" text NOT NULL,
	"subscriber_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "list_schemas" (
	"id" text PRIMARY KEY NOT NULL,
	"project_uuid" uuid NOT NULL,
	"owner_id" bigint NOT NULL,
	"bot_id" bigint,
	"name" text NOT NULL,
	"fields" jsonb NOT NULL,
	"is_menu" boolean DEFAULT false NOT NULL,
	"item_count" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "list_items" (
	"id" text PRIMARY KEY NOT NULL,
	"schema_id" text NOT NULL,
	"data" jsonb NOT NULL,
	"t1" text,
	"t2" text,
	"t3" text,
	"n1" numeric,
	"n2" numeric,
	"n3" numeric,
	"d1" timestamp with time zone,
	"d2" timestamp with time zone,
	"contact_id" bigint,
	"bot_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_uuid_projects_uuid_fk" FOREIGN KEY ("project_uuid") REFERENCES "public"."projects"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_project_uuid_projects_uuid_fk" FOREIGN KEY ("project_uuid") REFERENCES "public"."projects"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_schemas" ADD CONSTRAINT "list_schemas_project_uuid_projects_uuid_fk" FOREIGN KEY ("project_uuid") REFERENCES "public"."projects"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_email_key" ON "accounts" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_api_key_hash_key" ON "accounts" USING btree ("api_key_hash");--> statement-breakpoint
CREATE INDEX "projects_owner_idx" ON "projects" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "bots_project_idx" ON "bots" USING btree ("project_uuid");--> statement-breakpoint
CREATE INDEX "bots_owner_idx" ON "bots" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "list_schemas_owner_idx" ON "list_schemas" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE INDEX "list_schemas_project_idx" ON "list_schemas" USING btree ("project_uuid");--> statement-breakpoint
CREATE INDEX "list_items_created_idx" ON "list_items" USING btree ("schema_id","created_at","id");--> statement-breakpoint
CREATE INDEX "list_items_updated_idx" ON "list_items" USING btree ("schema_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "list_items_contact_idx" ON "list_items" USING btree ("schema_id","contact_id","created_at","id") WHERE "list_items"."contact_id" is not null;--> statement-breakpoint
CREATE INDEX "list_items_bot_idx" ON "list_items" USING btree ("schema_id","bot_id","created_at","id") WHERE "list_items"."bot_id" is not null;--> statement-breakpoint
CREATE INDEX "list_items_t1_idx" ON "list_items" USING btree ("schema_id","t1","id") WHERE "list_items"."t1" is not null;--> statement-breakpoint
CREATE INDEX "list_items_t2_idx" ON "list_items" USING btree ("schema_id","t2","id") WHERE "list_items"."t2" is not null;--> statement-breakpoint
CREATE INDEX "list_items_t3_idx" ON "list_items" USING btree ("schema_id","t3","id") WHERE "list_items"."t3" is not null;--> statement-breakpoint
CREATE INDEX "list_items_n1_idx" ON "list_items" USING btree ("schema_id","n1","id") WHERE "list_items"."n1" is not null;--> statement-breakpoint
CREATE INDEX "list_items_n2_idx" ON "list_items" USING btree ("schema_id","n2","id") WHERE "list_items"."n2" is not null;--> statement-breakpoint
CREATE INDEX "list_items_n3_idx" ON "list_items" USING btree ("schema_id","n3","id") WHERE "list_items"."n3" is not null;--> statement-breakpoint
CREATE INDEX "list_items_d1_idx" ON "list_items" USING btree ("schema_id","d1","id") WHERE "list_items"."d1" is not null;--> statement-breakpoint
CREATE INDEX "list_items_d2_idx" ON "list_items" USING btree ("schema_id","d2","id") WHERE "list_items"."d2" is not null;