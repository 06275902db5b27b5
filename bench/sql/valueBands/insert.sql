-- One record inserted as addListItem's statement writes it (the list's counter and version,
-- the record, its change in the feed), and with -D bands=1 the counts moved in the same
-- statement: a band for each number and date slot, a value for the first two text slots
-- (with -D bands=0 those two parts insert nothing).
--   pgbench -h 127.0.0.1 -U postgres -n -M extended -c 10 -j 2 -T 10 -D bands=0 -D owner=…
--   -D list=… -f <this file> lk_bands     (then -D bands=1; -c 1 -T 6 for the latency alone)
\set k random(2000000, 900000000)
with bumped as (
  update list_schemas set item_count = item_count + 1, version = version + 1
  where owner_id = :owner and id = :list returning id, owner_id, bot_id, layout),
inserted as (
  insert into list_items (id, schema_id, list_key, owner_id, data, created_at, updated_at, t1, t2, t3, n1, n2, n3, d1, d2)
  select gen_random_uuid()::text, bumped.id, hashtextextended(bumped.id, 0), bumped.owner_id, jsonb_build_object('f9', true), now(), now(),
    'c' || (:k % 1000), 's' || (:k % 100), 'note ' || :k, (:k::bigint * 7919) % 1000000,
    (:k::bigint * 104729) % 1000000, ((:k::bigint * 31) % 100000) / 100.0,
    '2020-01-01'::timestamptz + ((:k::bigint * 6151) % 1000) * interval '1 day',
    '2020-01-01'::timestamptz + (:k % 100000000) * interval '1 second'
  from bumped returning id, owner_id, list_key, data, created_at, updated_at, t1, t2, t3, n1, n2, n3, d1, d2),
feed as (insert into changes (account_id, type, schema_id, bot_id, item_id, layout, data, txid)
  select l.owner_id, 'list_item.created', l.id, l.bot_id, i.id, l.layout,
    json_build_object('data', i.data, 'created_at', i.created_at), pg_current_xact_id() from bumped l, inserted i),
bands as (insert into list_num_bands as b (owner_id, list_key, slot, band, n)
  select i.owner_id, i.list_key, s.slot, s.band, 1 from inserted i cross join lateral (values
    (4::smallint, floor(i.n1 / 1000)::bigint), (5, floor(i.n2 / 1000)), (6, floor(i.n3 / 100)),
    (7, floor(extract(epoch from i.d1) / 86400)), (8, floor(extract(epoch from i.d2) / 86400))) s(slot, band)
  where :bands = 1
  order by s.slot
  on conflict (owner_id, list_key, slot, band) do update set n = b.n + 1),
texts as (insert into list_text_counts as c (owner_id, list_key, slot, value, n)
  select i.owner_id, i.list_key, s.slot, s.value, 1 from inserted i cross join lateral (values
    (1::smallint, i.t1), (2, i.t2)) s(slot, value)
  where :bands = 1
  order by s.slot
  on conflict (owner_id, list_key, slot, value) do update set n = c.n + 1)
select id from inserted;
