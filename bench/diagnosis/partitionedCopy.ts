/**
 * The design measured for "no read's cost grows with other lists' records", without building
 * it into the service: a copy of the other-lists database (`lk_sweep_o<N>`, `npm run
 * bench:sweep -- --sizes 1000000 --other-records N`) whose list_items is hash-partitioned by
 * list (`list_key`), the rows entered in the order they lie in the flat table, so each
 * partition keeps the interleaving of the lists that hash to it. The copy is
 * `lk_sweep_o<N>_p<P>`; compare its reads with `otherListsCost.ts --beside` and the service on
 * it with `cpuPerRequest.ts --database`.
 *
 * Read-only as a prototype: `list_key` is a plain column in the copy (Postgres does not
 * partition by a generated column), so the service's inserts, which leave it to Postgres,
 * fail there. What the service would need to carry this is in docs/benchmarks.md ("A table
 * partitioned by list, measured").
 *
 *   npx tsx bench/diagnosis/partitionedCopy.ts [--other-records 4000000] [--partitions 16]
 */
import pg from 'pg';
import { benchArgs } from '../lib/args.js';
import { admin, BENCH_SERVER, databaseUrl } from '../lib/database.js';
import { runEntry } from '../lib/entry.js';

const args = benchArgs({
  usage: 'npx tsx bench/diagnosis/partitionedCopy.ts [options]',
  about:
    "A copy of the sweep's other-lists database with list_items hash-partitioned by list\n(lk_sweep_o<N>_p<P>), for otherListsCost.ts --beside and cpuPerRequest.ts --database.",
  options: {
    'other-records': 'N  the other-lists database to copy (default 4000000)',
    partitions: 'P  hash partitions (default 16)',
  },
});

/** Statements run one by one, each timed, on the copy. */
async function run(client: pg.Client, step: string, sql: string): Promise<void> {
  const started = Date.now();
  await client.query(sql);
  console.log(`${step}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

runEntry(async () => {
  const others = args.number('other-records', 4_000_000);
  const partitions = args.number('partitions', 16);
  const source = `lk_sweep_o${others}`;
  const target = `${source}_p${partitions}`;
  await admin(BENCH_SERVER, `drop database if exists ${target} with (force)`);
  // a template copy needs the source idle: the sweep's servers are stopped by now
  await admin(BENCH_SERVER, `create database ${target} template ${source}`);
  const client = new pg.Client({ connectionString: databaseUrl(BENCH_SERVER, target) });
  await client.connect();
  try {
    await client.query(`set maintenance_work_mem = '1GB'; set synchronous_commit = off`);
    const { rows: indexes } = await client.query<{ indexdef: string }>(
      `select indexdef from pg_indexes where tablename = 'list_items' and indexname <> 'list_items_pkey'`,
    );
    const { rows: stats } = await client.query<{ def: string }>(
      `select pg_get_statisticsobjdef(oid) as def from pg_statistic_ext
       where stxrelid = 'list_items'::regclass`,
    );
    // the definitions were read before: they name list_items, and the flat table's indexes and
    // statistics go with it before they are made again on the partitioned one
    await run(client, 'the flat table aside', `alter table list_items rename to list_items_flat`);
    // list_key plain: LIKE without INCLUDING GENERATED copies the column, not its expression
    await run(
      client,
      `list_items partitioned by hash (list_key) into ${partitions}`,
      `create table list_items (like list_items_flat including defaults)
         partition by hash (list_key);
       ${Array.from(
         { length: partitions },
         (_, i) => `create table list_items_p${i} partition of list_items
           for values with (modulus ${partitions}, remainder ${i})
           with (autovacuum_enabled = off);`,
       ).join('\n')}`,
    );
    await run(
      client,
      'rows copied in heap order',
      `insert into list_items select * from list_items_flat`,
    );
    await run(client, 'the flat table dropped', `drop table list_items_flat`);
    // the primary key must hold the partition key
    await run(
      client,
      'primary key (id, owner_id, list_key)',
      `alter table list_items add primary key (id, owner_id, list_key)`,
    );
    for (const { indexdef } of indexes) {
      await run(client, /INDEX (\S+) ON/.exec(indexdef)![1]!, indexdef);
    }
    for (const { def } of stats) await run(client, 'statistics', def);
    // every partition's visibility map set, as the sweep leaves its tables; the parent's
    // statistics are only made by an ANALYZE of the parent itself
    await run(client, 'vacuum analyze', `vacuum (analyze) list_items`);
    const { rows: sizes } = await client.query<{ name: string; rows: string; size: string }>(
      `select c.relname as name, c.reltuples::bigint::text as rows,
              pg_size_pretty(pg_total_relation_size(c.oid)) as size
       from pg_inherits i join pg_class c on c.oid = i.inhrelid
       where i.inhparent = 'list_items'::regclass order by length(c.relname), c.relname`,
    );
    console.table(sizes);
    console.log(`done: ${target}`);
  } finally {
    await client.end();
  }
});
