CREATE TABLE "webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"url" text NOT NULL,
	"types" text[],
	"schema_id" text,
	"bot_id" bigint,
	"secret" text NOT NULL,
	"cursor" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"leased_until" timestamp with time zone,
	"leased_by" text,
	"pending_id" text,
	"pending_body" text,
	"pending_next" text,
	"pending_since" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"failing_since" timestamp with time zone,
	"last_error" text,
	"last_success_at" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text
);
--> statement-breakpoint
CREATE INDEX "webhooks_account_idx" ON "webhooks" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "webhooks_due_idx" ON "webhooks" USING btree ("next_attempt_at") WHERE "webhooks"."disabled_at" is null;