-- design/record-storage.md: keep the visibility map and statistics of the records table
-- fresh, so filtered counts, the covering text-slot indexes and the deferred join's OFFSET
-- stay index-only while lists grow (the stock 20 % would wait for 200,000 new rows per
-- million). After 40,000 inserts without a vacuum, string equality + sort at 1M records
-- went from 4.2 to 6.5 ms (docs/records.md).
ALTER TABLE list_items SET (
  autovacuum_vacuum_scale_factor = 0.02,
  autovacuum_analyze_scale_factor = 0.02,
  autovacuum_vacuum_insert_scale_factor = 0.02
);
