-- Counts kept per value band, as a prototype (docs/benchmarks.md, "Counts kept per value
-- band, measured"): for each typed slot of the sweep's 1M list, how many records fall in each
-- band of values — numbers by a thousand (n1, n2) or a hundred (n3), dates by day — and for
-- the first two text slots how many hold each value. Run on a copy of the sweep's database:
--   psql -h 127.0.0.1 -U postgres -c "create database lk_bands template lk_sweep"
--   psql -h 127.0.0.1 -U postgres -d lk_bands -f bench/sql/valueBands/setup.sql
-- then the pgbench scripts beside this file (each says how); drop lk_bands afterwards.
create table list_num_bands (owner_id bigint, list_key bigint, slot smallint, band bigint,
  n bigint not null, primary key (owner_id, list_key, slot, band));
create table list_text_counts (owner_id bigint, list_key bigint, slot smallint, value text,
  n bigint not null, primary key (owner_id, list_key, slot, value));
insert into list_num_bands select owner_id, list_key, 4, floor(n1 / 1000), count(*) from list_items group by 1, 2, 4;
insert into list_num_bands select owner_id, list_key, 5, floor(n2 / 1000), count(*) from list_items group by 1, 2, 4;
insert into list_num_bands select owner_id, list_key, 6, floor(n3 / 100), count(*) from list_items group by 1, 2, 4;
insert into list_num_bands select owner_id, list_key, 7, floor(extract(epoch from d1) / 86400), count(*) from list_items group by 1, 2, 4;
insert into list_num_bands select owner_id, list_key, 8, floor(extract(epoch from d2) / 86400), count(*) from list_items group by 1, 2, 4;
insert into list_text_counts select owner_id, list_key, 1, t1, count(*) from list_items group by 1, 2, 4;
insert into list_text_counts select owner_id, list_key, 2, t2, count(*) from list_items group by 1, 2, 4;
vacuum analyze list_num_bands, list_text_counts;
-- the values pgbench needs: -D owner=… -D key=… -D list=…
select owner_id as owner, list_key as key, schema_id as list from list_items limit 1;
