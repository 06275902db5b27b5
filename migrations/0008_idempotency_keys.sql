CREATE TABLE "idempotency_keys" (
	"owner_id" bigint NOT NULL,
	"key" text NOT NULL,
	"method" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" smallint NOT NULL,
	"body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_owner_id_key_pk" PRIMARY KEY("owner_id","key")
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");