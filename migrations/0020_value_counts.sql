CREATE TABLE "list_value_counts" (
	"owner_id" bigint NOT NULL,
	"list_key" bigint NOT NULL,
	"slot" smallint NOT NULL,
	"vals" text[] NOT NULL,
	"counts" bigint[] NOT NULL,
	"snapshot" text NOT NULL,
	"version" bigint NOT NULL,
	"layout" integer NOT NULL,
	"counted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "list_value_counts_pkey" PRIMARY KEY("owner_id","list_key","slot")
);
