-- The same count from the bands (setup.sql): the whole bands below the bound's band, and the
-- records of that band below the bound from the count index. Run as countIndex.sql.
\set b random(50000, 150000)
\set band :b / 1000
select (select coalesce(sum(n), 0) from list_num_bands
         where owner_id = :owner and list_key = :key and slot = 4 and band < :band)
     + (select count(*) from list_items
         where owner_id = :owner and list_key = :key and n1 >= :band * 1000 and n1 < :b);
