CREATE TABLE "list_value_bands" (
	"owner_id" bigint NOT NULL,
	"list_key" bigint NOT NULL,
	"slot" smallint NOT NULL,
	"band" numeric NOT NULL,
	"records" bigint NOT NULL,
	CONSTRAINT "list_value_bands_pkey" PRIMARY KEY("owner_id","list_key","slot","band")
);
--> statement-breakpoint
-- A band is named by its lowest value (docs/records.md, "Counts kept per value band"): the
-- largest number of two significant digits at or below the value (123,456 → 120,000;
-- -123,456 → -130,000; 0.0456 → 0.045), so a list of any spread has about 90 bands a decade;
-- a date's band is its UTC day, named by its first second since 1970. Both are exact: numeric text, trunc and a power of ten parsed
-- from text, no logarithm whose rounding could put a value in two bands. Not STRICT, so that
-- Postgres inlines them into the statements that call them (a STRICT one ran 60 µs a call),
-- and built of immutable parts only, for the same reason (`||` with a number is not).
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
--> statement-breakpoint
-- A record's bands, one per slot with a value: 1–3 the number slots, 4–5 the date slots. A
-- UNION, not a VALUES list: Postgres inlines the band functions into SELECTs, not into a
-- lateral VALUES (4.2 s for 100,000 records' bands against 0.6 s).
CREATE FUNCTION list_item_bands(n1 numeric, n2 numeric, n3 numeric, d1 timestamptz,
  d2 timestamptz) RETURNS TABLE (slot smallint, band numeric)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 1::smallint, list_number_band(n1) WHERE n1 IS NOT NULL
  UNION ALL SELECT 2::smallint, list_number_band(n2) WHERE n2 IS NOT NULL
  UNION ALL SELECT 3::smallint, list_number_band(n3) WHERE n3 IS NOT NULL
  UNION ALL SELECT 4::smallint, list_day_band(d1) WHERE d1 IS NOT NULL
  UNION ALL SELECT 5::smallint, list_day_band(d2) WHERE d2 IS NOT NULL
$$;
--> statement-breakpoint
-- One statement's records, in (+1) or out (-1), as band deltas; a record whose slots an update
-- left alone cancels out. Upserted in key order, so two statements never wait on each other's
-- bands crosswise (every write also takes its list's row first).
CREATE FUNCTION list_items_value_bands() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_value_bands AS b (owner_id, list_key, slot, band, records)
    SELECT r.owner_id, r.list_key, v.slot, v.band, count(*)
    FROM new_rows r CROSS JOIN LATERAL list_item_bands(r.n1, r.n2, r.n3, r.d1, r.d2) v
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (owner_id, list_key, slot, band) DO UPDATE SET records = b.records + excluded.records;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO list_value_bands AS b (owner_id, list_key, slot, band, records)
    SELECT r.owner_id, r.list_key, v.slot, v.band, -count(*)
    FROM old_rows r CROSS JOIN LATERAL list_item_bands(r.n1, r.n2, r.n3, r.d1, r.d2) v
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (owner_id, list_key, slot, band) DO UPDATE SET records = b.records + excluded.records;
  ELSE
    INSERT INTO list_value_bands AS b (owner_id, list_key, slot, band, records)
    SELECT r.owner_id, r.list_key, v.slot, v.band, sum(r.delta)
    FROM (SELECT owner_id, list_key, n1, n2, n3, d1, d2, -1 AS delta FROM old_rows
          UNION ALL
          SELECT owner_id, list_key, n1, n2, n3, d1, d2, 1 FROM new_rows) r
    CROSS JOIN LATERAL list_item_bands(r.n1, r.n2, r.n3, r.d1, r.d2) v
    GROUP BY 1, 2, 3, 4 HAVING sum(r.delta) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (owner_id, list_key, slot, band) DO UPDATE SET records = b.records + excluded.records;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Not on Citus, which runs no statement trigger with transition tables on a distributed table
-- (the read path counts there as before); a database given Citus later drops them when it is
-- placed (src/infra/db/citusTriggers.ts). The bands of the records already there are counted
-- under the triggers' lock, so no write falls between.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    CREATE TRIGGER list_items_bands_insert AFTER INSERT ON list_items
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_items_value_bands();
    CREATE TRIGGER list_items_bands_delete AFTER DELETE ON list_items
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_items_value_bands();
    CREATE TRIGGER list_items_bands_update AFTER UPDATE ON list_items
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION list_items_value_bands();
    INSERT INTO list_value_bands (owner_id, list_key, slot, band, records)
    SELECT r.owner_id, r.list_key, v.slot, v.band, count(*)
    FROM list_items r CROSS JOIN LATERAL list_item_bands(r.n1, r.n2, r.n3, r.d1, r.d2) v
    GROUP BY 1, 2, 3, 4;
  END IF;
END $$;
