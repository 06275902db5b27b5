/**
 * Record storage benchmark (docs/records.md).
 *
 * Loads one table with three interleaved lists (10k, 100k, 1M records; string, number and
 * contact fields in slots t1, n1, contact_id) and measures, through the real getListItems
 * code path (page of 50 and meta.total run concurrently):
 *   (a) string equality (0.5 %) + order by a number
 *   (b) number range (1 %) + order by created_at
 *   (e) one contact's records (20 per list)
 * and, for each, the same query written against `data` JSONB only (the unindexed plan).
 * Then single-row insert rates: list_items with slots vs a table with only the primary key
 * and (schema_id, created_at, id), and the full addListItem path.
 *
 *   npm run bench:records -- [options]   (`--help` for them)
 * Uses BENCH_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres) and
 * a database of its own, `lk_bench_records`. Trust ratios more than absolute times.
 */
import { sql, type SQL } from 'drizzle-orm';
import pino from 'pino';
import type { Caller } from '../../src/admission/caller.js';
import { connectPostgres } from '../../src/infra/db/client.js';
import { listSchemas, type StoredField } from '../../src/infra/db/schema/listSchemas.js';
import { createFieldCipher } from '../../src/lists/encryption/cipher.js';
import { addItem } from '../../src/lists/items/addItem.js';
import { createListsContext, type ItemContext } from '../../src/lists/context.js';
import { queryItems } from '../../src/lists/items/queryItems.js';
import { assignSlots } from '../../src/lists/slots.js';
import { createAccount } from '../../src/operator/operatorAccounts.js';
import { createProject } from '../../src/operator/operatorProjects.js';
import { benchArgs } from '../lib/args.js';
import { BENCH_SERVER, benchDatabase } from '../lib/database.js';
import { fieldInput } from '../lib/dataset.js';
import { medianMs } from '../lib/stats.js';
import { runEntry } from '../lib/entry.js';

const args = benchArgs({
  usage: 'npm run bench:records -- [options]   (or npx tsx bench/scenarios/recordsStorage.ts)',
  about:
    'Record storage below HTTP: getListItems query shapes on slots against the same queries on\nJSONB alone, at three interleaved list sizes, then single-row insert rates.',
  flags: {
    reuse: 'keep the loaded table of an earlier run',
    'inserts-only': 'only the insert rates',
  },
  options: {
    sizes: 'N,N,…  list sizes (default 10000,100000,1000000)',
    runs: 'N  timed runs a shape, the median reported (default 9)',
    inserts: 'N  rows a single-row insert rate is taken over (default 3000)',
  },
});
const SIZES = (args.list('sizes') ?? ['10000', '100000', '1000000']).map(Number);
const RUNS = args.number('runs', 9);
const REUSE = args.flag('reuse');
const INSERTS_ONLY = args.flag('inserts-only');
const INSERTS = args.number('inserts', 3000);
const DB_NAME = 'lk_bench_records';

const FIELDS = assignSlots([
  fieldInput('s', 'string'),
  fieldInput('n', 'number'),
  fieldInput('c', 'contact'),
]) as StoredField[];

/** The median ms of RUNS calls of `fn`, after two warm-up calls. */
const medianOfRuns = (fn: () => Promise<unknown>) => medianMs(fn, RUNS);

async function main() {
  const { url, created } = await benchDatabase(BENCH_SERVER, DB_NAME, REUSE);
  const handle = connectPostgres(url, pino({ level: 'silent' }), {
    statementTimeoutMs: 600_000,
  });
  const db = handle.db;
  const lists = await ensureData(db, created);
  const caller: Caller = {
    accountId: lists.ownerId,
    email: 'b@bench',
    name: 'b',
    plan: 'pro',
    blocked: false,
    createdAt: new Date(),
  };
  const ctx: ItemContext = {
    ...createListsContext(
      db,
      createFieldCipher(Buffer.alloc(32, 1).toString('base64')),
      () => new Date(),
    ),
    caller,
  };

  if (INSERTS_ONLY) {
    await insertRates(db, ctx, lists.insertList);
    await handle.close();
    return;
  }
  console.log(`\nquery shapes, median of ${RUNS} runs (ms): page of 50 + meta.total`);
  console.log(
    'size      | (a) eq+sort | (b) range+sort | (e) contact | (a) jsonb | (b) jsonb | (e) jsonb',
  );
  const results: Record<number, number[]> = {};
  for (const size of SIZES) {
    const id = lists.ids[size]!;
    const base = { schemaId: id, limit: 50, page: 1, path: 'http://bench/api/v1/getListItems' };
    const a = await medianOfRuns(() =>
      queryItems(ctx, { ...base, filters: { s: 'v7' }, orderBy: 'n,asc' }),
    );
    const b = await medianOfRuns(() =>
      queryItems(ctx, { ...base, filters: { n: '>=,99000' }, orderBy: 'created_at' }),
    );
    const e = await medianOfRuns(() => queryItems(ctx, { ...base, contactId: 7 }));
    const ja = await medianOfRuns(() =>
      jsonbPage(db, id, sql`data->>'s' = 'v7'`, sql`(data->>'n')::numeric`),
    );
    const jb = await medianOfRuns(() =>
      jsonbPage(db, id, sql`(data->>'n')::numeric >= 99000`, sql`created_at`),
    );
    const je = await medianOfRuns(() =>
      jsonbPage(db, id, sql`(data->>'c')::numeric = 7`, sql`created_at`),
    );
    results[size] = [a, b, e, ja, jb, je];
    console.log(
      `${String(size).padEnd(9)} | ${[a, b, e, ja, jb, je].map((v) => v.toFixed(2).padStart(9)).join(' | ')}`,
    );
  }
  const small = results[SIZES[0]!]!;
  const large = results[SIZES[SIZES.length - 1]!]!;
  console.log(
    `\nratio largest/smallest list: (a) ${(large[0]! / small[0]!).toFixed(2)}x  (b) ${(large[1]! / small[1]!).toFixed(2)}x  (e) ${(large[2]! / small[2]!).toFixed(2)}x  (target <= 6x)`,
  );
  console.log(
    `slots vs JSONB plan at the largest list: (a) ${pct(large[0]!, large[3]!)}  (b) ${pct(large[1]!, large[4]!)}  (e) ${pct(large[2]!, large[5]!)}  (target <= 2 %)`,
  );

  const big = lists.ids[SIZES[SIZES.length - 1]!]!;
  const base = { schemaId: big, limit: 50, path: 'http://bench/api/v1/getListItems' };
  const lastPage = Math.ceil(SIZES[SIZES.length - 1]! / 50);
  console.log('\nother shapes at the largest list (ms):');
  console.log(
    `  unfiltered, default order, page 1:      ${(await medianOfRuns(() => queryItems(ctx, { ...base, page: 1 }))).toFixed(2)}`,
  );
  console.log(
    `  unfiltered, default order, last page:   ${(await medianOfRuns(() => queryItems(ctx, { ...base, page: lastPage }))).toFixed(2)}`,
  );
  console.log(
    `  unfiltered, order by n (nullable slot): ${(await medianOfRuns(() => queryItems(ctx, { ...base, page: 1, orderBy: 'n,asc' }))).toFixed(2)}`,
  );
  console.log(
    `  like '%7%' on the string slot (no trigram index): ${(await medianOfRuns(() => queryItems(ctx, { ...base, page: 1, filters: { s: 'like,%77%' } }))).toFixed(2)}`,
  );

  await insertRates(db, ctx, lists.insertList);
  await handle.close();
}

function pct(slot: number, jsonb: number) {
  return `${((slot / jsonb) * 100).toFixed(2)} %`;
}

async function jsonbPage(
  db: ReturnType<typeof connectPostgres>['db'],
  listId: string,
  where: SQL,
  order: SQL,
) {
  const cond = sql`(owner_id, list_key) =
    (select owner_id, hashtextextended(id, 0) from list_schemas where id = ${listId}) and ${where}`;
  await Promise.all([
    db.execute(sql`select id, data from list_items where ${cond} order by ${order}, id limit 50`),
    db.execute(sql`select count(*) from list_items where ${cond}`),
  ]);
}

async function ensureData(db: ReturnType<typeof connectPostgres>['db'], load: boolean) {
  if (!load) {
    const rows = (await db.execute(
      sql`select id, name, owner_id from list_schemas`,
    )) as unknown as { rows: { id: string; name: string; owner_id: number }[] };
    const ids: Record<number, string> = {};
    let insertList = '';
    for (const r of rows.rows) {
      if (r.name.startsWith('size ')) ids[Number(r.name.slice(5))] = r.id;
      if (r.name === 'inserts') insertList = r.id;
    }
    return { ids, insertList, ownerId: Number(rows.rows[0]!.owner_id) };
  }
  const account = await createAccount(db, { email: `bench${Date.now()}@bench.test` });
  const project = await createProject(db, account.id, 'bench');
  const ids: Record<number, string> = {};
  const makeList = async (name: string) => {
    const id = `bench-${name.replace(' ', '-')}`;
    await db
      .insert(listSchemas)
      .values({ id, projectUuid: project.uuid, ownerId: account.id, name, fields: FIELDS });
    return id;
  };
  for (const size of SIZES) ids[size] = await makeList(`size ${size}`);
  const insertList = await makeList('inserts');
  // Rows of all lists interleaved, as in a live table: row g goes to the list whose share
  // of the total it falls in, round-robin weighted by size.
  const total = SIZES.reduce((a, b) => a + b, 0);
  const started = Date.now();
  const lists = SIZES.map((size) => ({ size, id: ids[size]! }));
  const perContact = 20;
  const series = lists.map(
    ({
      size,
      id,
    }) => sql`select ${id}::text as list, k, ${Math.max(1, size / perContact)}::int as contacts,
      k::float8 * ${total / size} as pos from generate_series(0::bigint, ${size - 1}) as k`,
  );
  // One insert in global position order, so the lists' rows are physically interleaved.
  await db.execute(sql`
    insert into list_items (id, schema_id, list_key, owner_id, data, t1, n1, contact_id, created_at, updated_at)
    select list || '-' || lpad(k::text, 8, '0'), list, hashtextextended(list, 0), (select owner_id from list_schemas where id = list),
           jsonb_build_object('s', 'v' || (k % 200), 'n', (k * 7919) % 100000, 'c', 1 + (k % contacts)),
           'v' || (k % 200), (k * 7919) % 100000, 1 + (k % contacts),
           timestamptz '2024-01-01' + pos * interval '1 second',
           timestamptz '2024-01-01' + pos * interval '1 second'
    from (${sql.join(series, sql` union all `)}) as rows
    order by pos`);
  for (const { size, id } of lists) {
    await db.execute(sql`update list_schemas set item_count = ${size} where id = ${id}`);
  }
  await db.execute(sql`vacuum analyze list_items`);
  console.log(`loaded ${total} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { ids, insertList, ownerId: account.id };
}

async function insertRates(
  db: ReturnType<typeof connectPostgres>['db'],
  ctx: ItemContext,
  listId: string,
) {
  await db.execute(sql`drop table if exists bench_base`);
  await db.execute(sql`create table bench_base (id text primary key, schema_id text not null, data jsonb not null,
    created_at timestamptz not null default now(), updated_at timestamptz not null default now())`);
  await db.execute(sql`create index on bench_base (schema_id, created_at, id)`);
  const rate = async (label: string, fn: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 200; i++) await fn(-i - 1);
    const start = process.hrtime.bigint();
    for (let i = 0; i < INSERTS; i++) await fn(i);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const perSecond = INSERTS / seconds;
    console.log(`  ${label.padEnd(58)} ${perSecond.toFixed(0).padStart(7)} rows/s`);
    return perSecond;
  };
  const stamp = Date.now();
  console.log(`\nsingle-row inserts, one connection, ${INSERTS} rows each:`);
  const baseRate = await rate('table with only the pk and (schema_id, created_at, id)', (i) =>
    db.execute(
      sql`insert into bench_base (id, schema_id, data) values (${`b${stamp}-${i}`}, ${listId}, ${JSON.stringify({ s: 'v1', n: i, c: 3 })}::jsonb)`,
    ),
  );
  const slotRate = await rate('list_items with 3 slots (all slot indexes)', (i) =>
    db.execute(
      sql`insert into list_items (id, schema_id, list_key, owner_id, data, t1, n1, contact_id) values (${`s${stamp}-${i}`}, ${listId}, hashtextextended(${listId}::text, 0), (select owner_id from list_schemas where id = ${listId}), ${JSON.stringify({ s: 'v1', n: i, c: 3 })}::jsonb, 'v1', ${i}, 3)`,
    ),
  );
  // the whole addListItem path minus HTTP: lookup, validation, counter, insert (contact check
  // skipped: the bench has no contacts table rows, so the list's contact field is left empty)
  const fullRate = await rate(
    'addListItem path (lookup, validate, counter + insert: 1 statement)',
    (i) => addItem(ctx, listId, { s: 'v1', n: i }),
  );
  console.log(
    `  slots / base: ${((slotRate / baseRate) * 100).toFixed(0)} %   addListItem path / base: ${((fullRate / baseRate) * 100).toFixed(0)} %  (target >= 50 %)`,
  );
}

runEntry(main);
