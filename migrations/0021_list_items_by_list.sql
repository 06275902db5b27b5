-- list_items becomes a table partitioned by list: hash of `list_key` into 16 partitions, so
-- each list's records and index entries lie in one partition with about a sixteenth of the
-- other lists' records, and a read of one list no longer walks index pages shared with every
-- other list (docs/records.md, "One list's records in one partition"). Postgres refuses a
-- generated partition key, so `list_key` becomes a plain column that every insert fills;
-- `list_items_list_key_check_p<n>` keeps it equal to the hash of `schema_id`. The primary key gains
-- `list_key` (a partitioned table's keys must hold its partition key). The indexes, the
-- statistics object and the autovacuum settings are made again as they were, on every
-- partition. The rows are copied, so on a large table this holds list_items' lock for the
-- whole migration, as 0016 did.
--
-- On a Citus database nothing changes: each shard is already a table of its own, the column
-- stays generated (Citus cannot drop a distributed column's expression) and a partitioned
-- shard would multiply the relations on every worker by 17 (docs/scaling.md).
DO $$
DECLARE
  partitions constant int := 16;
  index_defs text[];
  def text;
  i int;
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    RETURN;
  END IF;
  SELECT coalesce(array_agg(indexdef ORDER BY indexname), '{}') INTO index_defs
  FROM pg_indexes
  WHERE schemaname = 'public' AND tablename = 'list_items' AND indexname <> 'list_items_pkey';
  -- the names go with the flat table before it is set aside, so the new ones can take them
  FOR def IN
    SELECT indexname FROM pg_indexes
    WHERE schemaname = 'public' AND tablename = 'list_items' AND indexname <> 'list_items_pkey'
  LOOP
    EXECUTE format('DROP INDEX %I', def);
  END LOOP;
  DROP STATISTICS IF EXISTS "list_items_owner_list_stats";
  ALTER TABLE "list_items" RENAME CONSTRAINT "list_items_pkey" TO "list_items_flat_pkey";
  ALTER TABLE "list_items" RENAME TO "list_items_flat";
  -- LIKE without INCLUDING GENERATED copies list_key as a plain column
  CREATE TABLE "list_items" (LIKE "list_items_flat" INCLUDING DEFAULTS)
    PARTITION BY HASH ("list_key");
  FOR i IN 0 .. partitions - 1 LOOP
    -- migration 0005's settings, which a partitioned parent cannot hold
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF "list_items" FOR VALUES WITH (MODULUS %s, REMAINDER %s)
       WITH (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02,
             autovacuum_vacuum_insert_scale_factor = 0.02)',
      'list_items_p' || i, partitions, i);
    -- the key's check on each partition, not on the parent: Citus could not place a
    -- partitioned table whose partitions inherit a check (it looked for the inherited check
    -- under the parent shard's name and failed)
    EXECUTE format(
      'ALTER TABLE %I ADD CONSTRAINT %I CHECK ("list_key" = hashtextextended("schema_id", 0))',
      'list_items_p' || i, 'list_items_list_key_check_p' || i);
  END LOOP;
  INSERT INTO "list_items" SELECT * FROM "list_items_flat";
  DROP TABLE "list_items_flat";
  -- each partition's indexes made first, named after the parent's with the partition's number
  -- (plans show these names): the parent's then take them as its own
  FOR i IN 0 .. partitions - 1 LOOP
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY ("id", "owner_id", "list_key")',
      'list_items_p' || i, 'list_items_pkey_p' || i);
    FOREACH def IN ARRAY index_defs LOOP
      EXECUTE regexp_replace(def, '^CREATE INDEX (\w+) ON public\.list_items ',
        format('CREATE INDEX \1_p%s ON public.list_items_p%s ', i, i));
    END LOOP;
  END LOOP;
  ALTER TABLE "list_items"
    ADD CONSTRAINT "list_items_pkey" PRIMARY KEY ("id", "owner_id", "list_key");
  FOREACH def IN ARRAY index_defs LOOP
    EXECUTE def;
  END LOOP;
  -- migration 0018's statistics: a partitioned parent's serve only plans of the whole table,
  -- so each partition, which a read of one list is planned on, has its own
  CREATE STATISTICS "list_items_owner_list_stats" (dependencies) ON "owner_id", "list_key"
    FROM "list_items";
  FOR i IN 0 .. partitions - 1 LOOP
    EXECUTE format('CREATE STATISTICS %I (dependencies) ON "owner_id", "list_key" FROM %I',
      'list_items_p' || i || '_owner_list_stats', 'list_items_p' || i);
  END LOOP;
END $$;
