/**
 * The owner_id backfill (migration 0011, src/infra/db/backfillOwners.ts) on a list of
 * 1,000,000 records from before the column: how long it takes, the longest batch, and what a
 * writer updating records of that list meanwhile waits at most — the locks it takes are
 * one batch's rows for one short statement.
 *
 *   npm run bench:owners [-- --records N]
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { backfillOwners } from '../src/infra/db/backfillOwners.js';
import { freshList } from './freshList.js';

const flag = process.argv.indexOf('--records');
const records = flag > 0 ? Number(process.argv[flag + 1]) : 1_000_000;
const fresh = await freshList('lk_owners');
const { handle, listId } = fresh;

console.log(`owner backfill bench: ${records.toLocaleString('en')} records without owner_id`);
// 100,000 a statement: the pool's statement timeout is 15 s
for (let from = 1; from <= records; from += 100_000) {
  await handle.db.execute(sql`
    insert into list_items (id, schema_id, data, t1, n1, d1)
    select lpad(to_hex(g), 12, '0') || '-0000-7000-8000-000000000000', ${listId},
           jsonb_build_object('s1', 'v' || g % 200, 'n1', g % 100000),
           'v' || g % 200, g % 100000, now() - (g || ' seconds')::interval
    from generate_series(${from}::int, ${Math.min(records, from + 99_999)}::int) g`);
}
await handle.db.execute(sql`vacuum analyze list_items`);

// a writer updating records of the same list all along, one statement at a time
const writer = new pg.Client({ connectionString: fresh.url });
await writer.connect();
let writing = true;
const waits: number[] = [];
const writes = (async () => {
  while (writing) {
    const k = 1 + Math.floor(Math.random() * records);
    const started = performance.now();
    await writer.query(`update list_items set n1 = n1 + 1 where id = $1`, [
      `${k.toString(16).padStart(12, '0')}-0000-7000-8000-000000000000`,
    ]);
    waits.push(performance.now() - started);
  }
})();

const started = performance.now();
const filled = await backfillOwners(handle.db);
const seconds = (performance.now() - started) / 1000;
writing = false;
await writes;
await writer.end();
waits.sort((a, b) => a - b);
const at = (q: number) => waits[Math.min(waits.length - 1, Math.floor(q * waits.length))]!;
console.log(
  `filled ${filled.toLocaleString('en')} rows in ${seconds.toFixed(1)} s (${Math.round(filled / seconds).toLocaleString('en')} rows/s, batches of 5,000)`,
);
console.log(
  `concurrent single-record updates: ${waits.length} during the backfill, p50 ${at(0.5).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms, max ${at(1).toFixed(1)} ms`,
);
await handle.close();
