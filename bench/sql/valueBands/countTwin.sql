-- The plain twin's count of the same bounds (its table in the sweep's database). Run as
-- countIndex.sql, without the -D values.
\set b random(50000, 150000)
select count(*) from plain_1000000 where amount < :b;
