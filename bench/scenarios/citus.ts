/**
 * `npm run bench:citus -- --cluster URL`: the service on a Citus cluster (scripts/citus/
 * cluster.sh: a coordinator and two workers on this machine) against the service on one
 * Postgres, the same data on both — a list of 1,000,000 records with the sweep's ten fields
 * (lib/sweepShapes.ts), loaded by the sweep's loader; on the cluster loaded into the
 * coordinator first and distributed in place by the service's own placement step.
 *
 * Measured with the same load generator, in paired rounds (single, cluster, then the other
 * order): addListItem, addListItems of 1,000 records, and getListItems with an exact total
 * for three of the sweep's filters, first-time (servers with LIST_CACHE_ROWS=0: every request
 * counts and pages) and repeated (the read cache on). Then, for each request, the workers it
 * touched: a fifth server on the cluster logs every command the coordinator sends to a node
 * (bench/servers/citusRemoteLog.ts) while one request at a time is sent. Printed; the figures
 * are in docs/benchmarks.md and docs/scaling.md. Not part of `npm run bench`: it needs a
 * cluster.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { migratePostgres } from '../../src/infra/db/migrate.js';
import { benchArgs } from '../lib/args.js';
import {
  clusterNodes,
  copyOntoCluster,
  isDistributed,
  joinCluster,
  sweepListWithoutTwin,
} from '../lib/citusCluster.js';
import { admin, BENCH_SERVER, databaseUrl } from '../lib/database.js';
import { runEntry } from '../lib/entry.js';
import { loadHttp, type HttpRequest, type LoadResult } from '../lib/load.js';
import { pairedRounds, type PairedResult } from '../lib/pairedRounds.js';
import {
  benchServiceEnv,
  startServer,
  startServers,
  type ServerProcess,
} from '../lib/serverProcess.js';
import { deleteInserted, insertedRecord } from '../lib/sweepBench.js';
import type { SweepData } from '../lib/sweepData.js';
import { median } from '../lib/stats.js';
import { SHAPES } from '../lib/sweepShapes.js';

const args = benchArgs({
  usage: 'npm run bench:citus -- --cluster URL [options]   (or npx tsx bench/scenarios/citus.ts)',
  about:
    'The service on a Citus cluster against the service on one Postgres, the same 1M-record list\non both: write rates, first-time and repeated filtered reads, and the workers each request touched.',
  flags: { 'trace-only': 'only the workers each request touches, no load' },
  options: {
    cluster: 'URL  the coordinator of scripts/citus/cluster.sh (workers on the next two ports)',
    single: `URL  the single Postgres server (default ${BENCH_SERVER})`,
    records: 'N  records in the list (default 1000000)',
    seconds: 'N  seconds per side and round (default 3)',
    rounds: 'N  paired rounds per request (default 5)',
    port: 'N  the first of five servers’ ports (default from the process id)',
  },
});
const cluster = args.text('cluster');
if (!cluster) throw new Error('--cluster URL is required (the coordinator)');
const single = args.text('single') ?? BENCH_SERVER;
const records = args.number('records', 1_000_000);
const seconds = args.number('seconds', 3);
const rounds = args.number('rounds', 5);
const port = args.number('port', 24_000 + 8 * (process.pid % 1000));
const traceOnly = args.flag('trace-only');
const CONNECTIONS = 10;
/** batches of 1,000 are heavy: fewer at once, so a request never waits for the pool */
const BATCH_CONNECTIONS = 4;
const BATCH = 1000;
/** requests sent one at a time to count the workers each touches */
const TRACED = 40;
const REMOTE_LOG_HOOK = './dist-bench/bench/servers/citusRemoteLog.js';
const log = (line: string) => console.log(line);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Workload {
  name: string;
  /** the servers that answer it: cached (the read cache on) or first (LIST_CACHE_ROWS=0) */
  server: 'cached' | 'first';
  connections: number;
  /** records a request writes (for records/s), 0 for reads */
  writes: number;
  request: (data: SweepData, i: number) => HttpRequest;
}

const read =
  (shape: (typeof SHAPES)[number], s: number) =>
  (data: SweepData): HttpRequest => ({
    method: 'POST',
    path: '/api/v1/getListItems',
    body: JSON.stringify({
      schema_id: data.lists[records],
      filters: shape.filters(s),
      order_by: shape.orderBy,
      limit: 50,
    }),
  });
const shapeNamed = (name: string) => SHAPES.find((s) => s.name === name)!;
const READS: [string, number][] = [
  ['string =', 0.01],
  ['number <', 0.1],
  ['= and <', 0.01],
];
/** inserted records are numbered past the loaded ones, each side its own range per round */
let nextRecord = records;
const WORKLOADS: Workload[] = [
  ...READS.flatMap(([name, s]): Workload[] =>
    (['first', 'cached'] as const).map((server) => ({
      name: `getListItems ${name} ${s * 100} %, ${server === 'first' ? 'first-time' : 'repeated'}`,
      server,
      connections: CONNECTIONS,
      writes: 0,
      request: read(shapeNamed(name), s),
    })),
  ),
  {
    name: 'addListItem',
    server: 'cached',
    connections: CONNECTIONS,
    writes: 1,
    request: (data) => ({
      method: 'POST',
      path: '/api/v1/addListItem',
      body: JSON.stringify({ schema_id: data.lists[records], data: insertedRecord(nextRecord++) }),
    }),
  },
  {
    name: `addListItems (${BATCH} a call)`,
    server: 'cached',
    connections: BATCH_CONNECTIONS,
    writes: BATCH,
    request: (data) => ({
      method: 'POST',
      path: '/api/v1/addListItems',
      body: JSON.stringify({
        schema_id: data.lists[records],
        items: Array.from({ length: BATCH }, () => insertedRecord(nextRecord++)),
      }),
    }),
  },
];

/** The cluster's database: the coordinator's loaded copy, distributed by the placement step. */
async function clusterData(): Promise<SweepData> {
  const coordinator = clusterNodes(cluster!)[0]!;
  const source = `lk_citus_src_${records}`;
  const name = `lk_citus_${records}`;
  const url = databaseUrl(coordinator, name);
  if (!(await isDistributed(url))) {
    await sweepListWithoutTwin(coordinator, source, records, log);
    await copyOntoCluster(coordinator, source, name);
    await joinCluster(url);
    const started = performance.now();
    await migratePostgres(url);
    log(`distributed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // the copies leave the shards without statistics or visibility map (index-only counts
    // then read the heap); the single side's loader vacuums its tables the same way
    await admin(url, 'vacuum analyze list_items, list_schemas');
  }
  return sweepListWithoutTwin(coordinator, name, records, log);
}

/**
 * For requests sent one at a time: how many touched how many workers, and the median number
 * of commands the coordinator sent to workers per request, from the remote-command log.
 */
async function workersTouched(
  server: ServerProcess,
  logFile: string,
  data: SweepData,
  w: Workload,
  coordinatorPort: string,
) {
  const counts = new Map<number, number>();
  const commands: number[] = [];
  for (let i = 0; i < TRACED; i++) {
    const r = w.request(data, i);
    const from = statSync(logFile).size;
    const res = await fetch(`${server.url}${r.path}`, {
      method: r.method,
      headers: { authorization: `Bearer ${data.apiKey}`, 'content-type': 'application/json' },
      body: r.body,
    });
    if (res.status >= 300) throw new Error(`${w.name}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer().catch(() => undefined);
    const sent = readFileSync(logFile, 'utf8')
      .slice(from)
      .split('\n')
      .map((l) => l.split('\t')[0]!)
      .filter((node) => node && !node.endsWith(`:${coordinatorPort}`));
    const nodes = new Set(sent).size;
    counts.set(nodes, (counts.get(nodes) ?? 0) + 1);
    commands.push(sent.length);
  }
  return { counts, commands: median(commands) };
}

runEntry(async () => {
  // the logging hook runs compiled, as dist/main.js does
  execFileSync('npx', ['tsc', '-p', 'tsconfig.bench.json'], { stdio: 'inherit' });
  log(`load average at the start: ${load()}`);
  const onCluster = await clusterData();
  const onSingle = await sweepListWithoutTwin(single, `lk_citus_single_${records}`, records, log);
  const sides = { single: onSingle, cluster: onCluster };
  const remoteLog = `${os.tmpdir()}/citus-remote-${process.pid}.log`;
  writeFileSync(remoteLog, '');
  /** the n-th server, its log in the temp directory under its name */
  const start = (
    n: number,
    name: string,
    url: string,
    env: Record<string, string>,
    args?: string[],
  ) =>
    startServer({
      args,
      env: { ...benchServiceEnv(url), ...env },
      port: port + n,
      logFile: `${os.tmpdir()}/citus-bench-${name}.log`,
    });
  const cache = { LIST_CACHE_ROWS: '50000' };
  const [singleCached, singleFirst, clusterCached, clusterFirst, traced] = await startServers([
    () => start(0, 'single-cached', onSingle.url, cache),
    () => start(1, 'single-first', onSingle.url, {}),
    () => start(2, 'cluster-cached', onCluster.url, cache),
    () => start(3, 'cluster-first', onCluster.url, {}),
    () =>
      start(4, 'cluster-traced', onCluster.url, { CITUS_REMOTE_LOG: remoteLog }, [
        '--import',
        REMOTE_LOG_HOOK,
        'dist/main.js',
      ]),
  ]);
  const servers = {
    single: { cached: singleCached!, first: singleFirst! },
    cluster: { cached: clusterCached!, first: clusterFirst! },
  };
  const rows: string[] = [];
  try {
    for (const w of WORKLOADS) {
      const run = (side: 'single' | 'cluster') => async (): Promise<LoadResult> => {
        const server = servers[side][w.server];
        const next = (i: number) => w.request(sides[side], i);
        await loadHttp(
          server.url,
          sides[side].apiKey,
          next,
          w.connections,
          Math.max(1, seconds / 3),
        );
        return loadHttp(server.url, sides[side].apiKey, next, w.connections, seconds);
      };
      const paired: PairedResult | undefined = traceOnly
        ? undefined
        : await pairedRounds(rounds, run('single'), run('cluster'), (r, a, b) =>
            log(
              `  ${w.name} round ${r + 1}: single ${a.rps.toFixed(0)} req/s (p99 ${a.p99.toFixed(1)} ms, ${a.errors} failed), cluster ${b.rps.toFixed(0)} (p99 ${b.p99.toFixed(1)} ms, ${b.errors} failed); load ${load()}`,
            ),
          );
      const { counts: touched, commands } = await workersTouched(
        traced!,
        remoteLog,
        onCluster,
        w,
        new URL(cluster!).port,
      );
      const oneWorker = touched.get(1) ?? 0;
      const rate = (x: LoadResult) =>
        w.writes > 1
          ? `${(x.rps * w.writes).toFixed(0)} records/s (${x.rps.toFixed(1)} calls/s)`
          : `${x.rps.toFixed(0)} req/s`;
      const measured = (x: LoadResult) => `${rate(x)}, p99 ${x.p99.toFixed(1)} ms`;
      const cells = paired
        ? [
            measured(paired.a),
            measured(paired.b),
            `${paired.ratio.toFixed(2)} (${Math.min(...paired.ratios).toFixed(2)}–${Math.max(...paired.ratios).toFixed(2)})`,
          ]
        : ['–', '–', '–'];
      const spread = [...touched].map(([n, c]) => `${c} on ${n}`).join(', ');
      const row = `| ${w.name} | ${cells.join(' | ')} | ${oneWorker} of ${TRACED}${touched.size > 1 || oneWorker === 0 ? ` (${spread})` : ''} | ${commands} |`;
      rows.push(row);
      log(row);
    }
    // the writes leave the lists as they were loaded, for the next run
    for (const side of ['single', 'cluster'] as const) {
      const pool = new pg.Pool({ connectionString: sides[side].url, max: 2 });
      await deleteInserted(pool, sides[side], records, servers[side].cached.url);
      await pool.end();
    }
  } finally {
    await Promise.all(
      [singleCached, singleFirst, clusterCached, clusterFirst, traced].map((s) => s!.stop()),
    );
  }
  log(
    [
      '',
      `${records} records, ${rounds} paired rounds of ${seconds} s, ${CONNECTIONS} connections (${BATCH_CONNECTIONS} for batches); load average at the end ${load()}`,
      '',
      '| request | single Postgres (median round) | Citus, 2 workers (median round) | cluster/single, median of rounds (range) | requests on one worker | commands to workers per request (median) |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows,
    ].join('\n'),
  );
});
