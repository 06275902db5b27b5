-- A first-time count of `amount < b` (10 % ± 5 %) as the service runs it: its count index.
--   PGOPTIONS="-c max_parallel_workers_per_gather=0 -c random_page_cost=1.1" pgbench -h 127.0.0.1
--   -U postgres -n -M extended -c 10 -j 2 -T 8 -D owner=… -D key=… -f <this file> lk_bands
\set b random(50000, 150000)
select count(*) from list_items where owner_id = :owner and list_key = :key and n1 < :b;
