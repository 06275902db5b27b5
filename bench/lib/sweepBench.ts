/**
 * The selectivity sweep (run by scenarios/sweep.ts and by the suite): getListItems with an
 * exact total at every filter selectivity from 0.1 % to 50 %, one condition and two or three
 * combined (lib/sweepShapes.ts), against a "plain table" twin — the same records in a table
 * of typed columns with one b-tree per column, served through HTTP by servers/twinServer.ts (a
 * page query and a count, as a generic REST layer over a table sends them; the rows answered
 * as JSON) at the same concurrency, by the same load generator.
 *
 * Cases: "repeated" (the same filter on every request), "first" (a filter the service has
 * not answered before: a second server with LIST_CACHE_ROWS=0, so nothing is remembered),
 * "bounds" (every read a new bound near the point's on the shape's first range, remembering
 * on, as a bot's users type their own amounts: the twin sends the same bounds),
 * "writes" (one updateListItem per 20 reads, each bumping the list's version; the twin runs
 * one UPDATE per 20 reads) and "inserts20", "inserts5" (one addListItem per 20 or per 5
 * reads; the twin INSERTs into its table; the inserted records are deleted after each point
 * so the list keeps its size). With `otherRecords` the table also holds that many records of
 * other lists of other owners, and so does each twin's. Results: sweep.md and sweep.json in
 * `outDir`.
 */
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadHttp, type HttpRequest, type LoadResult } from './load.js';
import { writeReportFiles } from './reportFiles.js';
import {
  BENCH_REDIS_URL,
  benchServiceEnv,
  startServer,
  startServers,
  type ServerProcess,
} from './serverProcess.js';
import { loadSweepData, twinScope, type SweepData } from './sweepData.js';
import { sweepChartSvg } from './sweepChart.js';
import { KEPT_COUNT_WORK, takeKeptCounts } from './sweepKeptCounts.js';
import { p99Text, pointRatio, ratioText } from './sweepRatio.js';
import { recordInput, SHAPES, type Shape } from './sweepShapes.js';

export const SELECTIVITIES = [0.001, 0.01, 0.05, 0.1, 0.5] as const;
const LIMIT = 50;
const CONNECTIONS = 10;
/** compiled by `npx tsc -p tsconfig.bench.json` (scenarios/sweep.ts and the suite run it) */
const TWIN_SERVER = 'dist-bench/bench/servers/twinServer.js';

export const CASES = ['repeated', 'first', 'bounds', 'writes', 'inserts20', 'inserts5'] as const;
export type Case = (typeof CASES)[number];

/** The write a case sends among its reads, and after how many reads; none for pure reads. */
interface Writes {
  kind: 'update' | 'insert';
  readsPerWrite: number;
}
/** What a case sends besides the point's read: writes among the reads, or moving bounds. */
interface Mix {
  writes?: Writes;
  /**
   * request i's scale of the first range's share (shapes' `j`): 0.9…1.1, spread evenly by
   * the golden ratio, so nearly every read of the "bounds" case sends a bound not sent before
   */
  scale?: (i: number) => number;
}
const MIXES: Partial<Record<Case, Mix>> = {
  bounds: { scale: (i) => 0.9 + 0.2 * ((i * 0.6180339887498949) % 1) },
  writes: { writes: { kind: 'update', readsPerWrite: 20 } },
  inserts20: { writes: { kind: 'insert', readsPerWrite: 20 } },
  inserts5: { writes: { kind: 'insert', readsPerWrite: 5 } },
};
const isWrite = (w: Writes | undefined, i: number) =>
  w !== undefined && i % (w.readsPerWrite + 1) === w.readsPerWrite;
/** Records the insert cases add are created now; the loaded ones in the sweep's year 2020. */
const INSERTED_AFTER = '2021-01-01';

/** An inserted record: the k-th record's values (no contact: the sweep holds no contacts). */
export function insertedRecord(k: number) {
  const record: Partial<ReturnType<typeof recordInput>> = recordInput(k);
  delete record.contact;
  return record;
}

export interface SweepRow {
  shape: string;
  selectivity: number;
  /** the share of the list the filter matched, as the twin counted it */
  matched: number;
  size: number;
  case: Case;
  api: LoadResult;
  plain: LoadResult;
  ratio: number;
}

/** The twin's page query and count for a point, limited to the list when others share its table. */
function twinQueries(data: SweepData, shape: Shape, size: number) {
  const table = `plain_${size}`;
  const where = `${twinScope(data, size)}(${shape.plainWhere})`;
  return {
    table,
    page: `select * from ${table} where ${where} order by ${shape.plainOrder} limit ${LIMIT}`,
    count: `select count(*) as n from ${table} where ${where}`,
  };
}

/**
 * The twin's requests through its HTTP server (servers/twinServer.ts): a page and a count per
 * read; among them, as the case says, an UPDATE of one of the twin's records or an INSERT.
 */
async function twinRequests(
  pool: pg.Pool,
  data: SweepData,
  shape: Shape,
  s: number,
  size: number,
  { writes, scale }: Mix,
): Promise<(i: number) => HttpRequest> {
  const { table, page, count } = twinQueries(data, shape, size);
  const ids = (
    await pool.query<{ id: string }>(
      `select id from ${table} where ${twinScope(data, size)}true limit 200`,
    )
  ).rows.map((r) => r.id);
  const listColumn = data.otherRecords > 0 ? 'list_id, ' : '';
  const listValue = data.otherRecords > 0 ? `'${data.lists[size]!}', ` : '';
  const readAt = (j?: number): HttpRequest => ({
    method: 'POST',
    path: '/read',
    body: JSON.stringify({ page, count, values: shape.plainValues(s, j) }),
  });
  const read = readAt();
  const write = (sql: string, values: unknown[]): HttpRequest => ({
    method: 'POST',
    path: '/write',
    body: JSON.stringify({ sql, values }),
  });
  return (i) => {
    if (!isWrite(writes, i)) return scale ? readAt(scale(i)) : read;
    if (writes!.kind === 'update')
      return write(`update ${table} set note = $1, updated_at = now() where id = $2`, [
        `w${i}`,
        ids[i % ids.length],
      ]);
    const r = insertedRecord(size + i);
    return write(
      `insert into ${table} (id, ${listColumn}city, segment, note, amount, rank, price, flag, day, at,
                             created_at, updated_at)
       values ($1, ${listValue}$2, $3, $4, $5, $6, $7, $8, $9, $10, now(), now())`,
      [
        `ins-${i}-${process.hrtime.bigint()}`,
        r.city,
        r.segment,
        r.note,
        r.amount,
        r.rank,
        r.price,
        r.flag,
        r.day,
        r.at,
      ],
    );
  };
}

/** The twin under load through its server for `seconds`; inserted rows are removed after. */
async function loadPlain(
  twin: ServerProcess,
  pool: pg.Pool,
  data: SweepData,
  shape: Shape,
  s: number,
  size: number,
  mix: Mix,
  seconds: number,
): Promise<LoadResult> {
  const next = await twinRequests(pool, data, shape, s, size, mix);
  const result = await loadHttp(twin.url, data.apiKey, next, CONNECTIONS, seconds);
  if (mix.writes?.kind === 'insert')
    await pool.query(`delete from ${twinQueries(data, shape, size).table} where id like 'ins-%'`);
  return result;
}

function apiRequests(
  shape: Shape,
  s: number,
  size: number,
  listId: string,
  items: string[],
  { writes, scale }: Mix,
) {
  const readAt = (j?: number): HttpRequest => ({
    method: 'POST',
    path: '/api/v1/getListItems',
    body: JSON.stringify({
      schema_id: listId,
      filters: shape.filters(s, j),
      order_by: shape.orderBy,
      limit: LIMIT,
    }),
  });
  const read = readAt();
  // counted across the point's runs: the measured run sends bounds its warm-up did not
  let reads = 0;
  return (i: number): HttpRequest => {
    if (!isWrite(writes, i)) return scale ? readAt(scale(reads++)) : read;
    return writes!.kind === 'update'
      ? {
          method: 'POST',
          path: '/api/v1/updateListItem',
          body: JSON.stringify({ item_id: items[i % items.length], data: { note: `w${i}` } }),
        }
      : {
          method: 'POST',
          path: '/api/v1/addListItem',
          body: JSON.stringify({ schema_id: listId, data: insertedRecord(size + i) }),
        };
  };
}

/** Deletes what an insert case added to the list, through the API, so the list keeps its size. */
export async function deleteInserted(
  pool: pg.Pool,
  data: SweepData,
  size: number,
  serverUrl: string,
) {
  const listId = data.lists[size]!;
  const ids = (
    await pool.query<{ id: string }>(
      `select id from list_items
       where (owner_id, list_key) = (select owner_id, hashtextextended(id, 0) from list_schemas where id = $1)
         and created_at > $2`,
      [listId, INSERTED_AFTER],
    )
  ).rows.map((r) => r.id);
  for (let from = 0; from < ids.length; from += 1000) {
    const response = await fetch(`${serverUrl}/api/v1/deleteListItems`, {
      method: 'POST',
      headers: { authorization: `Bearer ${data.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ schema_id: listId, item_ids: ids.slice(from, from + 1000) }),
    });
    if (!response.ok)
      throw new Error(`deleteListItems: ${response.status} ${await response.text()}`);
  }
}

export interface SweepOptions {
  sizes: number[];
  seconds: number;
  smoke: boolean;
  port: number;
  outDir: string;
  log: (line: string) => void;
  /** a subset of the cases (all by default) */
  cases?: readonly Case[];
  /** a subset of SELECTIVITIES (all by default) */
  selectivities?: readonly number[];
  /** a subset of the shapes, by name (all by default) */
  shapes?: readonly string[];
  /** records of other lists of other owners in the same table (none by default) */
  otherRecords?: number;
}

/**
 * A sweep server's log file, emptied: the servers log warnings and errors only, so a failed
 * point's cause (a 503's database error) is there to read afterwards.
 */
function serverLog(name: string): string {
  const file = path.join(serverLog.dir, `listkeeper-sweep-${name}.log`);
  rmSync(file, { force: true });
  return file;
}
serverLog.dir = os.tmpdir();

export async function runSweep(o: SweepOptions): Promise<SweepRow[]> {
  const otherRecords = o.otherRecords ?? 0;
  const dbName =
    (o.smoke ? 'lk_sweep_smoke' : 'lk_sweep') + (otherRecords > 0 ? `_o${otherRecords}` : '');
  const data = await loadSweepData(o.sizes, dbName, otherRecords, o.log);
  const env = benchServiceEnv(data.url);
  const [cached, uncached, twin] = (await startServers([
    () =>
      startServer({
        env: { ...env, LIST_CACHE_ROWS: '50000' },
        port: o.port,
        logFile: serverLog('cached'),
      }),
    () =>
      startServer({
        env: { ...env, LIST_CACHE_ROWS: '0' },
        port: o.port + 1,
        logFile: serverLog('uncached'),
      }),
    () =>
      startServer({
        args: [TWIN_SERVER],
        env: { DATABASE_URL: data.url, REDIS_URL: BENCH_REDIS_URL },
        port: o.port + 2,
        logFile: serverLog('twin'),
      }),
  ])) as [ServerProcess, ServerProcess, ServerProcess];
  o.log(`the servers' warnings and errors: ${serverLog.dir}/listkeeper-sweep-*.log`);
  const servers = { cached, uncached, twin };
  const pool = new pg.Pool({ connectionString: data.url, max: CONNECTIONS });
  const rows: SweepRow[] = [];
  /** points where a side answered nothing or failed: the run is not a measurement then */
  const failed: string[] = [];
  const warm = Math.max(0.5, o.seconds / 4);
  const cases = o.cases ?? CASES;
  /**
   * With autovacuum off (as on the machine CI runs on) nothing clears what a point's writes
   * leave: every later point's index-only scans would visit the heap pages they touched, on
   * both sides, and longer on the wider heap. So each point starts from both tables vacuumed,
   * as autovacuum keeps a live table (docs/benchmarks.md, "The sweep and autovacuum").
   */
  const autovacuum = (
    await pool.query<{ on: boolean }>(`select current_setting('autovacuum') = 'on' as on`)
  ).rows[0]!.on;
  if (!autovacuum) o.log('autovacuum is off: both tables are vacuumed before each point');
  try {
    o.log((await takeKeptCounts(pool, uncached.url, data, o.sizes)) ?? 'no list keeps counts');
    await warmUp(pool, servers, data, o);
    for (const size of o.sizes) {
      for (const shape of SHAPES.filter((sh) => o.shapes?.includes(sh.name) ?? true)) {
        for (const s of o.selectivities ?? SELECTIVITIES) {
          const { count, table } = twinQueries(data, shape, size);
          if (!autovacuum) await pool.query(`vacuum list_items, ${table}`);
          const counted = await pool.query<{ n: string }>(count, shape.plainValues(s));
          const matched = Number(counted.rows[0]!.n) / size;
          const plainReads = await measure(
            pool,
            (seconds) => loadPlain(twin, pool, data, shape, s, size, {}, seconds),
            o.seconds,
            warm,
          );
          /** the twin under each mix the chosen cases need, measured once per point */
          const plainWith = new Map<Case, LoadResult>();
          for (const c of cases) {
            const mix = MIXES[c];
            if (mix)
              plainWith.set(
                c,
                await measure(
                  pool,
                  (seconds) => loadPlain(twin, pool, data, shape, s, size, mix, seconds),
                  o.seconds,
                  null,
                ),
              );
          }
          for (const c of cases) {
            const server = c === 'first' ? servers.uncached : servers.cached;
            const next = apiRequests(
              shape,
              s,
              size,
              data.lists[size]!,
              data.items[size]!,
              MIXES[c] ?? {},
            );
            const run = (seconds: number) =>
              loadHttp(server.url, data.apiKey, next, CONNECTIONS, seconds);
            const api = await measure(pool, run, o.seconds, warm);
            if (MIXES[c]?.writes?.kind === 'insert')
              await deleteInserted(pool, data, size, server.url);
            // the counts brought past this case's writes now, not in the next case's time
            const caughtUp = MIXES[c]?.writes
              ? await takeKeptCounts(pool, uncached.url, data, [size])
              : undefined;
            if (caughtUp) o.log(`  after ${c}: ${caughtUp}`);
            const plain = plainWith.get(c) ?? plainReads;
            const row = {
              shape: shape.name,
              selectivity: s,
              matched,
              size,
              case: c,
              api,
              plain,
              ratio: pointRatio(api, plain),
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
  await writeReport(rows, o, otherRecords);
  if (failed.length > 0)
    throw new Error(`${failed.length} sweep points failed:\n${failed.join('\n')}`);
  return rows;
}

/**
 * A few seconds of reads on each side and size before the first point. Freshly loaded, the
 * twin's table (loaded last) was in the caches and the service's was not: the first point
 * measured the service's first-time `string =` at 0.54 of the twin, and 0.91 when the same
 * point ran again a minute later (0.87 after a reload with this warm-up). The reads are the
 * first shape's at the last selectivity, the same request again and again: the first point's
 * shape, the server code paths, the connections and the statements the points after it use.
 */
async function warmUp(
  pool: pg.Pool,
  servers: Record<'cached' | 'uncached' | 'twin', ServerProcess>,
  data: SweepData,
  o: SweepOptions,
) {
  const shape = SHAPES[0]!;
  const s = (o.selectivities ?? SELECTIVITIES).at(-1)!;
  for (const size of o.sizes) {
    await loadPlain(servers.twin, pool, data, shape, s, size, {}, o.seconds);
    for (const server of [servers.uncached, servers.cached]) {
      const next = apiRequests(shape, s, size, data.lists[size]!, data.items[size]!, {});
      await loadHttp(server.url, data.apiKey, next, CONNECTIONS, o.seconds);
    }
  }
  await settle(pool);
}

/**
 * A side's figure at a point needs some answered requests: where a request takes longer than
 * the point lasts (every one of ten in flight on two cores), a point of `seconds` answers none
 * and says 0 req/s. Such a point is measured again, long enough for MIN_ANSWERED.
 */
const MIN_ANSWERED = 20;
const MAX_POINT_SECONDS = 60;

async function measure(
  pool: pg.Pool,
  run: (seconds: number) => Promise<LoadResult>,
  seconds: number,
  warm: number | null,
) {
  if (warm !== null) {
    await run(warm);
    await settle(pool);
  }
  let result = await run(seconds);
  await settle(pool);
  for (let longer = seconds; result.requests < MIN_ANSWERED && longer < MAX_POINT_SECONDS;) {
    // a request's time, as far as this point shows it: at most the whole point
    const perRequest = longer / Math.max(result.requests, 1);
    longer = Math.min(MAX_POINT_SECONDS, Math.max(2 * longer, perRequest * MIN_ANSWERED));
    result = await run(longer);
    await settle(pool);
  }
  return result;
}

/**
 * Ends the statements a load left running. The load generator stops at its deadline and
 * abandons the requests in flight, whose statements the servers go on running: beside 4M other
 * lists' records the twin's counts ran for seconds into the service's next point. Cancelled,
 * no point pays for the one before it. A server's abandoned requests also wait in its pool's
 * queue, each starting its statement as the one before is cancelled (a twin point whose
 * requests outlast autocannon's timeout leaves dozens), so the database counts as quiet only
 * after QUIET_CHECKS checks in a row found nothing to cancel. The service's background
 * recounts of its kept counts run on (sweepKeptCounts.ts): they belong to no request, and
 * cancelled they start again.
 */
const QUIET_CHECKS = 5;
const SETTLE_CHECKS = 1200;
const CHECK_EVERY_MS = 100;

async function settle(pool: pg.Pool): Promise<void> {
  let quiet = 0;
  for (let check = 0; check < SETTLE_CHECKS; check++) {
    const { rows } = await pool.query<{ n: number }>(
      `select count(pg_cancel_backend(pid))::int as n from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()
         and backend_type = 'client backend' and state = 'active' and query !~* $1`,
      [KEPT_COUNT_WORK],
    );
    quiet = rows[0]!.n === 0 ? quiet + 1 : 0;
    if (quiet === QUIET_CHECKS) return;
    await new Promise((resolve) => setTimeout(resolve, CHECK_EVERY_MS));
  }
  throw new Error(
    `statements were still starting ${(SETTLE_CHECKS * CHECK_EVERY_MS) / 1000} s after a load ended: a server goes on working for abandoned requests`,
  );
}

const pct = (s: number) => `${+(s * 100).toFixed(1)} %`;

function formatRow(r: SweepRow): string {
  return [
    `${r.shape.padEnd(13)} ${pct(r.selectivity).padStart(6)} (${pct(r.matched).padStart(6)}) @${String(r.size).padEnd(8)} ${r.case.padEnd(9)}`,
    `api ${r.api.rps.toFixed(0).padStart(6)} req/s p99 ${p99Text(r.api, 1).padStart(6)}`,
    `plain ${r.plain.rps.toFixed(0).padStart(6)} req/s p99 ${p99Text(r.plain, 1).padStart(6)}`,
    `ratio ${ratioText(r)}`,
  ].join(' | ');
}

/** One table per case and size: API/plain by shape (rows) and selectivity (columns). */
function ratioGrids(rows: SweepRow[]): string[] {
  const lines: string[] = [];
  const selectivities = [...new Set(rows.map((r) => r.selectivity))];
  for (const size of new Set(rows.map((r) => r.size))) {
    for (const c of CASES) {
      const of = rows.filter((r) => r.size === size && r.case === c);
      if (of.length === 0) continue;
      lines.push(
        `### ${c}, ${size} records: API/plain (API p99 / plain p99 ms)`,
        '',
        `| shape | ${selectivities.map(pct).join(' | ')} |`,
        `| --- | ${selectivities.map(() => '---').join(' | ')} |`,
      );
      for (const shape of new Set(of.map((r) => r.shape))) {
        const cells = selectivities.map((s) => {
          const r = of.find((x) => x.shape === shape && x.selectivity === s);
          return r
            ? `${r.ratio < 1 ? '**' : ''}${ratioText(r)}${r.ratio < 1 ? '**' : ''} (${p99Text(r.api, 0)} / ${p99Text(r.plain, 0)})`
            : '';
        });
        lines.push(`| ${shape} | ${cells.join(' | ')} |`);
      }
      lines.push('');
    }
  }
  return lines;
}

async function writeReport(rows: SweepRow[], o: SweepOptions, otherRecords: number) {
  const lines = [
    '# Selectivity sweep',
    '',
    `getListItems (limit ${LIMIT}, exact total) against the plain-table twin served through HTTP (bench/servers/twinServer.ts), ${CONNECTIONS} connections, ${o.seconds} s per point (a side that answered fewer than ${MIN_ANSWERED} requests measured again, longer); ${otherRecords} records of other lists in the same tables; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at the end. Written by \`npm run bench:sweep\`.`,
    '',
    '## API/plain per case (bold: the API slower than the twin)',
    '',
    '![API/plain per case, shape and selectivity](sweep.svg)',
    '',
    ...ratioGrids(rows),
    '## Every point',
    '',
    '| shape | selectivity | matched | records | case | API req/s | API p99 ms | plain req/s | plain p99 ms | API/plain |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.shape} | ${pct(r.selectivity)} | ${pct(r.matched)} | ${r.size} | ${r.case} | ${r.api.rps.toFixed(0)} | ${p99Text(r.api, 1)} | ${r.plain.rps.toFixed(0)} | ${p99Text(r.plain, 1)} | ${ratioText(r)} |`,
    ),
    '',
  ];
  await writeReportFiles(o.outDir, {
    'sweep.json': JSON.stringify(rows),
    'sweep.md': lines.join('\n'),
    'sweep.svg': sweepChartSvg(rows),
  });
}
