/**
 * The selectivity sweep (run by scenarios/sweep.ts and by the suite): getListItems with an
 * exact total at every filter selectivity from 0.1 % to 50 %, against a "plain table" twin —
 * the same records in a table of typed columns with one b-tree per column, queried by raw SQL
 * (a page query and a count, as a generic REST layer over a table sends them) through
 * node-postgres at the same concurrency.
 *
 * Cases: "repeated" (the same filter on every request), "first" (a filter the service has
 * not answered before: a second server with LIST_CACHE_ROWS=0, so nothing is remembered) and
 * "writes" (one updateListItem per 20 reads, each bumping the list's version; the twin runs
 * one UPDATE per 20 reads). Results: sweep.md and sweep.json in `outDir`.
 */
import os from 'node:os';
import pg from 'pg';
import pino from 'pino';
import { uuidv7 } from 'uuidv7';
import { connectPostgres, queryRows } from '../../src/infra/db/client.js';
import { listSchemas, type StoredField } from '../../src/infra/db/schema/listSchemas.js';
import { createFieldCipher } from '../../src/lists/encryption/cipher.js';
import { toStoredChanges } from '../../src/lists/items/storedRow.js';
import { validateData } from '../../src/lists/items/validateData.js';
import { assignSlots } from '../../src/lists/slots.js';
import { createAccount } from '../../src/operator/operatorAccounts.js';
import { createBot } from '../../src/operator/operatorBots.js';
import { createProject } from '../../src/operator/operatorProjects.js';
import { sql } from 'drizzle-orm';
import { BENCH_SERVER, benchDatabase, bulkLoadClient } from './database.js';
import { ENCRYPTION_KEY, fieldInput as field } from './dataset.js';
import { writeReportFiles } from './reportFiles.js';
import { closedLoop, loadHttp, type HttpRequest, type LoadResult } from './load.js';
import { benchServiceEnv, startServer, startServers, type ServerProcess } from './serverProcess.js';

export const SELECTIVITIES = [0.001, 0.01, 0.05, 0.1, 0.5] as const;
const LIMIT = 50;
const CONNECTIONS = 10;
/** reads per write in the "writes" case */
const READS_PER_WRITE = 20;
/** bump when the generated records change: the sweep's database is then rebuilt */
const DATA_VERSION = 1;

/** Ten typed fields: three strings, two numbers, money, bool, date, datetime, contact. */
const FIELDS = assignSlots([
  field('city', 'string'),
  field('segment', 'string'),
  field('note', 'string'),
  field('amount', 'number'),
  field('rank', 'number'),
  field('price', 'money', { currency: 'USD' }),
  field('flag', 'bool'),
  field('day', 'date'),
  field('at', 'datetime'),
  field('contact', 'contact'),
]) as StoredField[];

/** `city` takes `c0.1`, `c1`, `c5`, `c10`, `c50` on exactly that share of records. */
const CITY_TIERS: [number, string][] = [
  [1, 'c0.1'],
  [11, 'c1'],
  [61, 'c5'],
  [161, 'c10'],
  [661, 'c50'],
];
const cityValue = (s: number) => `c${s * 100}`;
const DAY0 = Date.UTC(2020, 0, 1);
const DAYS = 1000;
const isoDay = (n: number) => new Date(DAY0 + n * 86_400_000).toISOString().slice(0, 10);

/** Record k: `city` by a scrambled per-mille, `amount` uniform on 0…999,999, `day` on 1000 days. */
function recordInput(k: number) {
  const perMille = Math.imul(k, 2654435761) >>> 0;
  const r = perMille % 1000;
  const city = CITY_TIERS.find(([below]) => r < below)?.[1] ?? `x${r}`;
  const amount = (Math.imul(k, 7919) >>> 0) % 1_000_000;
  return {
    city,
    segment: `s${k % 100}`,
    note: `note ${k}`,
    amount,
    rank: (Math.imul(k, 104729) >>> 0) % 1_000_000,
    price: ((k * 31) % 100_000) / 100,
    flag: k % 2 === 0,
    day: isoDay((Math.imul(k, 6151) >>> 0) % DAYS),
    at: new Date(DAY0 + k * 1000).toISOString(),
    contact: 1 + (k % 1000),
  };
}

interface Shape {
  name: string;
  /** the filter matching `selectivity` of the records; `variant` shifts a range bound */
  filters: (s: number) => Record<string, string>;
  orderBy: string;
  /** the twin's WHERE and ORDER BY with $1 */
  plainWhere: string;
  plainValue: (s: number) => string | number;
  plainOrder: string;
}

const SHAPES: Shape[] = [
  {
    name: 'string =',
    filters: (s) => ({ city: cityValue(s) }),
    orderBy: 'rank,desc',
    plainWhere: 'city = $1',
    plainValue: (s) => cityValue(s),
    plainOrder: 'rank desc',
  },
  {
    name: 'number <',
    filters: (s) => ({ amount: `<,${Math.round(s * 1_000_000)}` }),
    orderBy: 'day,asc',
    plainWhere: 'amount < $1',
    plainValue: (s) => Math.round(s * 1_000_000),
    plainOrder: 'day asc',
  },
  {
    name: 'date <',
    filters: (s) => ({ day: `<,${isoDay(Math.round(s * DAYS))}` }),
    orderBy: 'amount,desc',
    plainWhere: 'day < $1',
    plainValue: (s) => isoDay(Math.round(s * DAYS)),
    plainOrder: 'amount desc',
  },
];

interface Loaded {
  url: string;
  apiKey: string;
  /** size → list id */
  lists: Record<number, string>;
  /** size → some item ids of that list, for the writes case */
  items: Record<number, string[]>;
}

async function loadData(
  sizes: number[],
  dbName: string,
  log: (l: string) => void,
  rebuild = false,
): Promise<Loaded> {
  const { url, created } = await benchDatabase(BENCH_SERVER, dbName, !rebuild);
  const handle = connectPostgres(url, pino({ level: 'silent' }), { statementTimeoutMs: 3_600_000 });
  const db = handle.db;
  const key = JSON.stringify({ DATA_VERSION, sizes });
  try {
    await db.execute(
      sql`create table if not exists sweep_meta (key text primary key, loaded jsonb not null)`,
    );
    const [found] = await queryRows<{ loaded: Loaded }>(
      db,
      sql`select loaded from sweep_meta where key = ${key}`,
    );
    if (found && !created) {
      log(`reusing the sweep's records in ${dbName}`);
      return found.loaded;
    }
    if (!created) {
      // loaded for other sizes or an older data set: start from an empty database
      await handle.close();
      return loadData(sizes, dbName, log, true);
    }
    const started = Date.now();
    const account = await createAccount(db, { email: `sweep-${Date.now()}@bench.test` });
    const project = await createProject(db, account.id, 'sweep');
    await createBot(db, project.uuid, 'sweep');
    const cipher = createFieldCipher(ENCRYPTION_KEY);
    const { client, rebuildIndexes } = await bulkLoadClient(url, '512MB');
    const lists: Record<number, string> = {};
    const items: Record<number, string[]> = {};
    const slotNames = ['t1', 't2', 't3', 'n1', 'n2', 'n3', 'd1', 'd2', 'contact_id'] as const;
    for (const size of sizes) {
      const id = uuidv7();
      await db.insert(listSchemas).values({
        id,
        projectUuid: project.uuid,
        ownerId: account.id,
        name: `sweep ${size}`,
        fields: FIELDS,
      });
      lists[size] = id;
      items[size] = [];
      for (let start = 0; start < size; start += 5000) {
        const cols: Record<string, (string | null)[]> = { id: [], data: [], created: [] };
        for (const s of slotNames) cols[s] = [];
        for (let k = start; k < Math.min(size, start + 5000); k++) {
          const changes = toStoredChanges(
            FIELDS,
            validateData(FIELDS, recordInput(k), 'add'),
            cipher,
          );
          const itemId = uuidv7();
          if (k % Math.max(1, Math.floor(size / 200)) === 0) items[size]!.push(itemId);
          cols.id!.push(itemId);
          cols.data!.push(JSON.stringify(changes.data));
          cols.created!.push(new Date(DAY0 + k * 1000).toISOString());
          for (const s of slotNames) cols[s]!.push(changes.slots[s] ?? null);
        }
        await client.query(
          `insert into list_items (id, schema_id, owner_id, data, created_at, updated_at, ${slotNames.join(', ')})
           select id, $1, (select owner_id from list_schemas where id = $1), d, c, c, t1, t2, t3, n1, n2, n3, d1, d2, ci from unnest(
             $2::text[], $3::jsonb[], $4::timestamptz[], $5::text[], $6::text[], $7::text[],
             $8::numeric[], $9::numeric[], $10::numeric[], $11::timestamptz[], $12::timestamptz[],
             $13::bigint[]) as u(id, d, c, t1, t2, t3, n1, n2, n3, d1, d2, ci)`,
          [id, cols.id, cols.data, cols.created, ...slotNames.map((s) => cols[s])],
        );
      }
      await client.query('update list_schemas set item_count = $1 where id = $2', [size, id]);
      await buildPlainTwin(client, size, id);
      log(
        `  ${size} records and their plain twin in ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
    }
    await rebuildIndexes();
    await client.query('vacuum analyze list_items');
    await client.query('vacuum analyze list_schemas');
    await client.end();
    const loaded: Loaded = { url, apiKey: account.api_key, lists, items };
    await db.execute(
      sql`insert into sweep_meta (key, loaded) values (${key}, ${JSON.stringify(loaded)}::jsonb)`,
    );
    log(`loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return loaded;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The same records in a table of typed columns, one b-tree per column (the generic layout). */
async function buildPlainTwin(client: pg.Client, size: number, listId: string) {
  const table = `plain_${size}`;
  await client.query(`drop table if exists ${table}`);
  await client.query(`create table ${table} (
    id text primary key, city text, segment text, note text, amount numeric, rank numeric,
    price numeric, flag boolean, day date, at timestamptz, contact bigint,
    created_at timestamptz not null, updated_at timestamptz not null)`);
  await client.query(
    `insert into ${table}
     select id, t1, t2, t3, n1, n2, n3, (data->>'flag')::boolean, (d1 at time zone 'UTC')::date,
            d2, contact_id, created_at, updated_at
     from list_items where schema_id = $1 order by created_at`,
    [listId],
  );
  for (const column of [
    'city',
    'segment',
    'note',
    'amount',
    'rank',
    'price',
    'flag',
    'day',
    'at',
    'contact',
  ])
    await client.query(`create index on ${table} (${column})`);
  await client.query(`vacuum analyze ${table}`);
}

export const CASES = ['repeated', 'first', 'writes'] as const;
export type Case = (typeof CASES)[number];

export interface SweepRow {
  shape: string;
  selectivity: number;
  size: number;
  case: Case;
  api: LoadResult;
  plain: LoadResult;
  ratio: number;
}

/** The twin: `connections` workers, each sending a page query then a count, for `seconds`. */
async function loadPlain(
  pool: pg.Pool,
  shape: Shape,
  s: number,
  size: number,
  writes: boolean,
  seconds: number,
): Promise<LoadResult> {
  const table = `plain_${size}`;
  const page = `select * from ${table} where ${shape.plainWhere} order by ${shape.plainOrder} limit ${LIMIT}`;
  const count = `select count(*) from ${table} where ${shape.plainWhere}`;
  const ids = (await pool.query<{ id: string }>(`select id from ${table} limit 200`)).rows.map(
    (r) => r.id,
  );
  const { result } = await closedLoop(CONNECTIONS, seconds, async (i) => {
    if (writes && i % (READS_PER_WRITE + 1) === READS_PER_WRITE) {
      await pool.query(`update ${table} set note = $1, updated_at = now() where id = $2`, [
        `w${i}`,
        ids[i % ids.length],
      ]);
    } else {
      await pool.query(page, [shape.plainValue(s)]);
      await pool.query(count, [shape.plainValue(s)]);
    }
  });
  return result;
}

function apiRequests(shape: Shape, s: number, listId: string, items: string[], writes: boolean) {
  const read: HttpRequest = {
    method: 'POST',
    path: '/api/v1/getListItems',
    body: JSON.stringify({
      schema_id: listId,
      filters: shape.filters(s),
      order_by: shape.orderBy,
      limit: LIMIT,
    }),
  };
  return (i: number): HttpRequest =>
    writes && i % (READS_PER_WRITE + 1) === READS_PER_WRITE
      ? {
          method: 'POST',
          path: '/api/v1/updateListItem',
          body: JSON.stringify({ item_id: items[i % items.length], data: { note: `w${i}` } }),
        }
      : read;
}

export interface SweepOptions {
  sizes: number[];
  seconds: number;
  smoke: boolean;
  port: number;
  outDir: string;
  log: (line: string) => void;
  /** a subset of the cases (all three by default) */
  cases?: readonly Case[];
  /** a subset of SELECTIVITIES (all by default) */
  selectivities?: readonly number[];
}

export async function runSweep(o: SweepOptions): Promise<SweepRow[]> {
  const loaded = await loadData(o.sizes, o.smoke ? 'lk_sweep_smoke' : 'lk_sweep', o.log);
  const env = benchServiceEnv(loaded.url);
  const [cached, uncached] = (await startServers([
    () => startServer({ env: { ...env, LIST_CACHE_ROWS: '50000' }, port: o.port }),
    () => startServer({ env: { ...env, LIST_CACHE_ROWS: '0' }, port: o.port + 1 }),
  ])) as [ServerProcess, ServerProcess];
  const servers = { cached, uncached };
  const pool = new pg.Pool({ connectionString: loaded.url, max: CONNECTIONS });
  const rows: SweepRow[] = [];
  /** points where a side answered nothing or failed: the run is not a measurement then */
  const failed: string[] = [];
  const warm = Math.max(0.5, o.seconds / 4);
  const cases = o.cases ?? CASES;
  try {
    for (const size of o.sizes) {
      for (const shape of SHAPES) {
        for (const s of o.selectivities ?? SELECTIVITIES) {
          const plainReads = await measure(
            () => loadPlain(pool, shape, s, size, false, o.seconds),
            () => loadPlain(pool, shape, s, size, false, warm),
          );
          const plainWrites = cases.includes('writes')
            ? await measure(() => loadPlain(pool, shape, s, size, true, o.seconds), null)
            : plainReads;
          for (const c of cases) {
            const server = c === 'first' ? servers.uncached : servers.cached;
            const next = apiRequests(
              shape,
              s,
              loaded.lists[size]!,
              loaded.items[size]!,
              c === 'writes',
            );
            const run = (seconds: number) =>
              loadHttp(server.url, loaded.apiKey, next, CONNECTIONS, seconds);
            const api = await measure(
              () => run(o.seconds),
              () => run(warm),
            );
            const plain = c === 'writes' ? plainWrites : plainReads;
            const row = {
              shape: shape.name,
              selectivity: s,
              size,
              case: c,
              api,
              plain,
              ratio: api.rps / plain.rps,
            };
            rows.push(row);
            o.log(formatRow(row));
            if (api.requests === 0 || api.errors > 0 || plain.errors > 0)
              failed.push(formatRow(row));
          }
        }
      }
    }
  } finally {
    await pool.end();
    await Promise.all(Object.values(servers).map((sv) => sv.stop()));
  }
  await writeReport(rows, o);
  if (failed.length > 0)
    throw new Error(`${failed.length} sweep points failed:\n${failed.join('\n')}`);
  return rows;
}

async function measure(run: () => Promise<LoadResult>, warmup: (() => Promise<LoadResult>) | null) {
  if (warmup) await warmup();
  return run();
}

const pct = (s: number) => `${+(s * 100).toFixed(1)} %`;

function formatRow(r: SweepRow): string {
  return [
    `${r.shape.padEnd(9)} ${pct(r.selectivity).padStart(6)} @${String(r.size).padEnd(8)} ${r.case.padEnd(8)}`,
    `api ${r.api.rps.toFixed(0).padStart(6)} req/s p99 ${r.api.p99.toFixed(1).padStart(6)}`,
    `plain ${r.plain.rps.toFixed(0).padStart(6)} req/s p99 ${r.plain.p99.toFixed(1).padStart(6)}`,
    `ratio ${r.ratio.toFixed(2)}`,
  ].join(' | ');
}

async function writeReport(rows: SweepRow[], o: SweepOptions) {
  const lines = [
    '# Selectivity sweep',
    '',
    `getListItems (limit ${LIMIT}, exact total) against the plain-table twin queried by raw SQL, ${CONNECTIONS} connections, ${o.seconds} s per point; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at the end. Written by \`npm run bench:sweep\`.`,
    '',
    '| shape | selectivity | records | case | API req/s | API p99 ms | plain req/s | plain p99 ms | API/plain |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.shape} | ${pct(r.selectivity)} | ${r.size} | ${r.case} | ${r.api.rps.toFixed(0)} | ${r.api.p99.toFixed(1)} | ${r.plain.rps.toFixed(0)} | ${r.plain.p99.toFixed(1)} | ${r.ratio.toFixed(2)} |`,
    ),
    '',
  ];
  await writeReportFiles(o.outDir, {
    'sweep.json': JSON.stringify(rows),
    'sweep.md': lines.join('\n'),
  });
}
