CREATE TABLE "contact_stats" (
	"bot_id" bigint PRIMARY KEY NOT NULL,
	"owner_id" bigint NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"live_count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_variables" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contact_id" bigint NOT NULL,
	"name" text NOT NULL,
	"value" text,
	"type" smallint DEFAULT 0 NOT NULL,
	"schema_id" bigint,
	"deletable" boolean DEFAULT true NOT NULL,
	"payload" jsonb,
	CONSTRAINT "contact_variables_type_check" CHECK ("type" BETWEEN 0 AND 4)
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"bot_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"messenger" text NOT NULL,
	"telegram_id" bigint,
	"max_user_id" bigint,
	"vk_user_id" bigint,
	"viber_id" text,
	"messenger_key" text GENERATED ALWAYS AS (CASE "messenger" WHEN 'telegram' THEN "telegram_id"::text WHEN 'max' THEN "max_user_id"::text WHEN 'vk' THEN "vk_user_id"::text WHEN 'viber' THEN "viber_id" END) STORED,
	"telegram_username" text,
	"max_username" text,
	"phone" text,
	"email" text,
	"name" text NOT NULL,
	"address" text,
	"avatar" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"preview" boolean DEFAULT false NOT NULL,
	"first_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"unsubscribed_at" timestamp with time zone,
	CONSTRAINT "contacts_messenger_check" CHECK ("messenger" IN ('telegram', 'max', 'viber', 'vk', 'web')),
	CONSTRAINT "contacts_messenger_id_check" CHECK ("messenger" = 'web' OR "messenger_key" IS NOT NULL)
);
--> statement-breakpoint
ALTER TABLE "contact_variables" ADD CONSTRAINT "contact_variables_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_stats_owner_idx" ON "contact_stats" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contact_variables_contact_name_idx" ON "contact_variables" USING btree ("contact_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_messenger_key_idx" ON "contacts" USING btree ("bot_id","messenger","messenger_key");--> statement-breakpoint
CREATE INDEX "contacts_bot_page_idx" ON "contacts" USING btree ("bot_id","id","created_at") WHERE NOT "preview";--> statement-breakpoint
CREATE INDEX "contacts_owner_page_idx" ON "contacts" USING btree ("owner_id","id","created_at") WHERE NOT "preview";