/**
 * Migration 0012 (owner_id in every key, docs/scaling.md) on a database an older version
 * left: a list of 1,000,000 records none of which has its owner yet (the worst case: the
 * background fill of 0011 never ran). Measures `npm run migrate` end to end and what a writer
 * adding records to that list all along waits at most — the only exclusive locks are the
 * migration transaction's catalog changes.
 *
 *   npm run bench:owners [-- --records N]
 */
import pg from 'pg';
import { uuidv7 } from 'uuidv7';
import { migratePostgres, migrationsFolderUpTo } from '../../src/infra/db/migrate.js';
import { benchArgs } from '../lib/args.js';
import { admin, BENCH_SERVER, databaseUrl } from '../lib/database.js';
import { quantile } from '../lib/stats.js';

const records = benchArgs({
  usage:
    'npm run bench:owners [-- --records N]   (or npx tsx bench/scenarios/ownerKeysMigration.ts)',
  about:
    '`npm run migrate` across migration 0012 on records without their owner, while a writer adds\nrecords to the same list: the migration’s time and how long the writer waits.',
  options: { records: 'N  records without owner_id (default 1000000)' },
}).number('records', 1_000_000);
const name = 'lk_owner_keys';
await admin(BENCH_SERVER, `drop database if exists ${name} with (force)`);
await admin(BENCH_SERVER, `create database ${name}`);
const url = databaseUrl(BENCH_SERVER, name);
await migratePostgres(url, migrationsFolderUpTo(11));

const setup = new pg.Client({ connectionString: url });
await setup.connect();
await setup.query(`insert into accounts (id, email, name, plan, api_key_hash)
                   values (1, 'owner@bench.test', 'Owner', 'pro', 'x')`);
await setup.query(`insert into projects (uuid, owner_id, name)
                   values ('00000000-0000-4000-8000-000000000001', 1, 'P')`);
const listId = uuidv7();
await setup.query(
  `insert into list_schemas (id, project_uuid, owner_id, name, fields)
   values ($1, '00000000-0000-4000-8000-000000000001', 1, 'L', '[]')`,
  [listId],
);
console.log(`owner keys migration bench: ${records.toLocaleString('en')} records without owner_id`);
for (let from = 1; from <= records; from += 100_000) {
  await setup.query(
    `insert into list_items (id, schema_id, data, t1, n1, d1)
     select lpad(to_hex(g), 12, '0') || '-0000-7000-8000-000000000000', $1,
            jsonb_build_object('s1', 'v' || g % 200, 'n1', g % 100000),
            'v' || g % 200, g % 100000, now() - (g || ' seconds')::interval
     from generate_series($2::int, $3::int) g`,
    [listId, from, Math.min(records, from + 99_999)],
  );
}
await setup.query('vacuum analyze list_items');
const size = await setup.query<{ size: string }>(
  `select pg_size_pretty(pg_total_relation_size('list_items')) as size`,
);
await setup.end();

// a writer adding records to the same list all along, as the current version writes them
const writer = new pg.Client({ connectionString: url });
await writer.connect();
let writing = true;
const waits: number[] = [];
const writes = (async () => {
  while (writing) {
    const started = performance.now();
    await writer.query(
      `insert into list_items (id, schema_id, owner_id, data, t1) values ($1, $2, 1, '{}', 'w')`,
      [uuidv7(), listId],
    );
    waits.push(performance.now() - started);
  }
})();

const started = performance.now();
await migratePostgres(url);
const seconds = (performance.now() - started) / 1000;
writing = false;
await writes;
await writer.end();
waits.sort((a, b) => a - b);
const at = (q: number) => quantile(waits, q);
console.log(`list_items before: ${size.rows[0]!.size}`);
console.log(
  `npm run migrate (fill, CHECK, indexes built concurrently, 0012, FK validation, vacuum): ${seconds.toFixed(1)} s`,
);
console.log(
  `concurrent inserts: ${waits.length.toLocaleString('en')} during the migration, p50 ${at(0.5).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms, max ${at(1).toFixed(0)} ms`,
);
await admin(BENCH_SERVER, `drop database if exists ${name} with (force)`);
