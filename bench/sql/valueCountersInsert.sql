-- plainInsert.sql plus what per-value counters would add to each insert: one upserted
-- (list, slot, value) → n row per text slot. Needs, besides the probe list:
--   create table value_counts (schema_id text, slot text, value text, n bigint not null,
--     primary key (schema_id, slot, value));
-- Run as plainInsert.sql; drop the table afterwards.
\set r random(0, 999)
\set k random(1, 100000000)
begin;
update list_schemas set item_count = item_count + 1, version = version + 1 where id = 'count-probe-list';
insert into list_items (id, schema_id, list_key, owner_id, data, t1, t2, t3, n1, n2, n3, d1, d2)
values (gen_random_uuid()::text, 'count-probe-list', hashtextextended('count-probe-list', 0), 1, '{"city":"x","segment":"s","note":"n"}',
  case when :r < 1 then 'c0.1' when :r < 11 then 'c1' when :r < 61 then 'c5' when :r < 161 then 'c10' when :r < 661 then 'c50' else 'x' || :r end,
  's' || (:k % 100), 'note ' || :k, :k % 1000000, (:k * 7) % 1000000, :k % 1000, now(), now());
insert into value_counts (schema_id, slot, value, n) values
  ('count-probe-list', 't1', case when :r < 1 then 'c0.1' when :r < 11 then 'c1' when :r < 61 then 'c5' when :r < 161 then 'c10' when :r < 661 then 'c50' else 'x' || :r end, 1),
  ('count-probe-list', 't2', 's' || (:k % 100), 1),
  ('count-probe-list', 't3', 'note ' || :k, 1)
on conflict (schema_id, slot, value) do update set n = value_counts.n + 1;
commit;
