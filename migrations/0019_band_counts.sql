CREATE TABLE "list_band_counts" (
	"owner_id" bigint NOT NULL,
	"list_key" bigint NOT NULL,
	"slot" smallint NOT NULL,
	"bands" numeric[] NOT NULL,
	"cumulative" bigint[] NOT NULL,
	"snapshot" text NOT NULL,
	"version" bigint NOT NULL,
	"layout" integer NOT NULL,
	"counted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "list_band_counts_pkey" PRIMARY KEY("owner_id","list_key","slot")
);
--> statement-breakpoint
-- A band is named by its lowest value (docs/records.md, "Counts per value band"): the
-- largest number of two significant digits at or below the value (123,456 → 120,000;
-- -123,456 → -130,000; 0.0456 → 0.045), so a list of any spread has about 90 bands a decade;
-- a date's band is its UTC day, named by its first second since 1970. Both are exact:
-- numeric text, trunc and a power of ten parsed from text, no logarithm whose rounding could
-- put a value in two bands. Not STRICT, so that Postgres inlines them into the statements
-- that call them (a STRICT one ran 60 µs a call), and built of immutable parts only, for the
-- same reason (`||` with a number is not).
CREATE FUNCTION list_number_exponent(a numeric) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN a >= 1 THEN length(trunc(a)::text) - 1
    ELSE -(length(substr(a::text, 3)) - length(ltrim(substr(a::text, 3), '0'))) - 1 END
$$;
--> statement-breakpoint
CREATE FUNCTION list_number_band(v numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN v IS NULL THEN NULL
    WHEN v > 0 THEN trunc(v, 1 - list_number_exponent(v))
    WHEN v < 0 THEN CASE WHEN trunc(v, 1 - list_number_exponent(-v)) = v THEN v
      ELSE trunc(v, 1 - list_number_exponent(-v))
        - ('1e' || (list_number_exponent(-v) - 1)::text)::numeric END
    ELSE 0 END
$$;
--> statement-breakpoint
CREATE FUNCTION list_day_band(d timestamptz) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT floor(extract(epoch FROM d - '1970-01-01 00:00:00+00'::timestamptz) / 86400) * 86400
$$;
