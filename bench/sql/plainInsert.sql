-- One insert as addListItem writes it (the list's counter and version, then the record),
-- for comparing with valueCountersInsert.sql (docs/benchmarks.md, "First-time reads").
-- Needs a list row with id 'count-probe-list' in the sweep's database (lk_sweep), e.g.
--   insert into list_schemas select (jsonb_populate_record(null::list_schemas,
--     to_jsonb(l) || '{"id":"count-probe-list","item_count":0}')).* from list_schemas l limit 1;
-- Run: pgbench -h 127.0.0.1 -U postgres -n -M prepared -c 10 -j 2 -T 15 -f <this file> lk_sweep
-- Afterwards delete the probe list's records and row.
\set r random(0, 999)
\set k random(1, 100000000)
begin;
update list_schemas set item_count = item_count + 1, version = version + 1 where id = 'count-probe-list';
insert into list_items (id, schema_id, list_key, owner_id, data, t1, t2, t3, n1, n2, n3, d1, d2)
values (gen_random_uuid()::text, 'count-probe-list', hashtextextended('count-probe-list', 0), 1, '{"city":"x","segment":"s","note":"n"}',
  case when :r < 1 then 'c0.1' when :r < 11 then 'c1' when :r < 61 then 'c5' when :r < 161 then 'c10' when :r < 661 then 'c50' else 'x' || :r end,
  's' || (:k % 100), 'note ' || :k, :k % 1000000, (:k * 7) % 1000000, :k % 1000, now(), now());
commit;
