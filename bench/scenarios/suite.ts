/**
 * `npm run bench`: the benchmark suite (docs/benchmarks.md; `--help` for its options).
 *
 * Uses BENCH_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres)
 * with databases of its own (lk_bench, lk_bench_smoke) and Redis database 7 of REDIS_URL's
 * server (default redis://127.0.0.1:6379). Exits non-zero only when a scenario errors.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { connectPostgres } from '../../src/infra/db/client.js';
import { createRuntime } from '../../src/runtime.js';
import { capture, installCapture, type Capture } from '../lib/capture.js';
import { BENCH_SERVER, databaseUrl } from '../lib/database.js';
import { ensureDataset, type DatasetShape } from '../lib/dataset.js';
import { exportScenario, type ExportResult } from '../lib/exportScenario.js';
import { loadHttp, loadRaw, type LoadResult, type RawTemplate } from '../lib/load.js';
import { pairedRounds } from '../lib/pairedRounds.js';
import { median, medianRound } from '../lib/stats.js';
import { writeReport, type AuthOverhead, type Row } from '../lib/suiteReport.js';
import { scenarios, type Scenario } from '../lib/suiteScenarios.js';
import { runChangesBench } from '../lib/changesBench.js';
import { runSweep } from '../lib/sweepBench.js';
import { runWebhooksBench } from '../lib/webhooksBench.js';
import {
  BENCH_REDIS_URL,
  benchServiceEnv,
  startServer,
  startServers,
  type ServerProcess,
} from '../lib/serverProcess.js';
import { benchArgs } from '../lib/args.js';
import { reportDir } from '../lib/reportFiles.js';
import { runEntry } from '../lib/entry.js';

const args = benchArgs({
  usage: 'npm run bench -- [options]   (or npx tsx bench/scenarios/suite.ts [options])',
  about:
    'The suite: scenarios a–l against the raw replay of their SQL (and the floor), the export,\nthe auth step, two instances, the sweep, the change feed and webhooks. Full run: 10k/100k/1M\nlists and 1M contacts (the data set is built once and reused); report in docs/bench.',
  flags: {
    smoke:
      'tiny data, ~2 s per scenario, targets not meaningful, report in the temp directory (CI)',
    'skip-build': 'use dist/ and dist-bench/ as they are',
  },
  options: {
    seconds: 'N  per side and scenario, split into rounds (default 10; 1 with --smoke)',
    connections: 'N  load connections (default 10)',
    only: 'LIST  a part: scenario letters and sweep, changes, webhooks (e.g. a,c,g,sweep)',
    port: 'N  the first of the run’s ports (default from the process id)',
  },
});
const SMOKE = args.flag('smoke');
const SECONDS = args.number('seconds', SMOKE ? 1 : 10);
const WARMUP = SMOKE ? 0.5 : 2;
/** measurements per side and scenario, taken in turns; SECONDS is split between them */
const ROUNDS = SMOKE ? 1 : 3;
/** the auth + limiter pairs: more, shorter rounds, each compared on its own (lib/pairedRounds.ts) */
const AUTH_ROUNDS = SMOKE ? 1 : 10;
const AUTH_ROUND_SECONDS = SMOKE ? 1 : 2;
const CONNECTIONS = args.number('connections', 10);
/** the service's pool size (src/infra/db/client.ts); the raw pool is given the same */
const POOL = 10;
const ONLY = args.list('only');
const DB_NAME = SMOKE ? 'lk_bench_smoke' : 'lk_bench';
// Below Linux's ephemeral range (32768–60999): an outgoing connection of the run (autocannon,
// pools) can never hold the port a server is about to listen on.
const PORT = args.number('port', 21_000 + 8 * (process.pid % 1000));
const OUT = reportDir(SMOKE);

const SHAPE: DatasetShape = SMOKE
  ? {
      sizes: [300, 1000, 3000],
      noiseLists: 20,
      noiseSize: 100,
      contacts: 3000,
      otherContacts: 1000,
    }
  : {
      sizes: [10_000, 100_000, 1_000_000],
      noiseLists: 900,
      noiseSize: 1000,
      contacts: 1_000_000,
      otherContacts: 200_000,
    };

const log = (line: string) => console.log(line);
const wanted = (letter: string) => !ONLY || ONLY.includes(letter);

async function main() {
  const started = Date.now();
  const ds = await ensureDataset(BENCH_SERVER, DB_NAME, SHAPE, log);
  const dbUrl = databaseUrl(BENCH_SERVER, DB_NAME);
  if (!args.flag('skip-build')) {
    log('building dist/ and dist-bench/ …');
    execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
    // the bench's own servers run compiled too, so they compare with dist/main.js like for like
    execFileSync('npx', ['tsc', '-p', 'tsconfig.bench.json'], { stdio: 'inherit' });
  }
  const env = benchServiceEnv(dbUrl);
  const all = scenarios(ds, SHAPE).filter((s) => wanted(s.letter));

  // 1. Instrumented run: the SQL of each request (the raw workload) and round-trip counts.
  log('capturing each scenario’s queries in-process …');
  const captured = await captureAll(all, dbUrl, env, ds.apiKey);

  // 2. Cold start: spawn to /readyz 200, five times, since a start lands on whatever the
  // machine is still doing after the build and the capture (the spread: docs/benchmarks.md).
  const coldStarts: number[] = [];
  for (let r = 0; r < (SMOKE ? 1 : 5); r++) {
    const s = await startServer({ env, port: PORT });
    coldStarts.push(s.readyMs);
    await s.stop();
  }

  // 3. Load: each scenario against the server process, then its raw twin.
  const rows: Row[] = [];
  const errors: string[] = [];
  const server = await startServer({ env, port: PORT });
  try {
    for (const s of all) {
      try {
        rows.push(await measure(s, server, ds.apiKey, dbUrl, captured.get(s.id)!));
      } catch (err) {
        errors.push(`${s.id}: ${String(err)}`);
        console.error(`scenario ${s.id} failed:`, err);
      }
    }
  } finally {
    await server.stop();
  }

  let exported: ExportResult | undefined;
  if (wanted('g')) {
    const s = await startServer({ env, port: PORT });
    try {
      log('g: getContacts export …');
      exported = await exportScenario({
        url: s.url,
        apiKey: ds.apiKey,
        botId: ds.botId,
        databaseUrl: dbUrl,
        redisUrl: BENCH_REDIS_URL,
        redisPrefix: 'lk:',
        limit: 1000,
        coldRuns: SMOKE ? 1 : 5,
      });
      log(`  ${JSON.stringify(exported)}`);
    } catch (err) {
      errors.push(`g: ${String(err)}`);
      console.error('scenario g failed:', err);
    } finally {
      await s.stop();
    }
  }

  // 4. The auth + limiter step: the same route through bench/servers/variantServer.ts with it on and off.
  const authRatio = wanted('a')
    ? await authOverhead(
        env,
        ds.apiKey,
        ds.accountId,
        all[0]!,
        dbUrl,
        captured.get(all[0]!.id)!,
      ).catch((err: unknown) => {
        errors.push(`auth overhead: ${String(err)}`);
        return undefined;
      })
    : undefined;

  // 5. Two instances against one on the CPU-bound point read.
  const scaleOut = wanted('a') && !SMOKE ? await twoInstances(env, ds.apiKey, all[0]!) : undefined;

  // 6. The selectivity sweep against the plain-table twin (lib/sweepBench.ts; its own report).
  if (wanted('sweep')) {
    log('selectivity sweep …');
    await runSweep({
      sizes: SMOKE ? [2000] : [10_000, 100_000, 1_000_000],
      seconds: SMOKE ? 0.5 : 3,
      // two selectivities keep the smoke run's every shape and case short enough for CI
      selectivities: SMOKE ? [0.01, 0.5] : undefined,
      smoke: SMOKE,
      port: PORT + 4,
      outDir: OUT,
      log,
    }).catch((err: unknown) => errors.push(`sweep: ${String(err)}`));
  }

  // 7. The change feed: writes with and without it, bytes per change, reads at the head.
  if (wanted('changes')) {
    log('change feed …');
    await runChangesBench({
      smoke: SMOKE,
      seconds: SMOKE ? 0.5 : 5,
      port: PORT + 6,
      log,
    }).catch((err: unknown) => errors.push(`changes: ${String(err)}`));
  }

  // 8. Webhook delivery under write load: throughput and lag at the receiver.
  if (wanted('webhooks')) {
    log('webhook delivery …');
    await runWebhooksBench({
      smoke: SMOKE,
      seconds: SMOKE ? 1 : 10,
      webhooks: 4,
      port: PORT + 7,
      log,
    }).catch((err: unknown) => errors.push(`webhooks: ${String(err)}`));
  }

  await writeReport(OUT, {
    smoke: SMOKE,
    seconds: SECONDS,
    rounds: ROUNDS,
    connections: CONNECTIONS,
    pool: POOL,
    shape: SHAPE,
    rows,
    captured: Object.fromEntries(
      [...captured].map(([id, c]) => [
        id,
        { auth: c[0]!.auth, handler: c[0]!.handler, queries: c[0]!.queries.length },
      ]),
    ),
    coldStarts,
    exported,
    authRatio,
    scaleOut,
    machine: machineFacts(),
    tookSeconds: (Date.now() - started) / 1000,
  });
  log(`report: ${OUT}/results.md`);
  if (errors.length > 0) {
    console.error(`\n${errors.length} scenario(s) failed:\n${errors.join('\n')}`);
    process.exit(1);
  }
}

/** One request of each shape of each scenario through the app in-process, recorded. */
async function captureAll(
  all: Scenario[],
  dbUrl: string,
  env: Record<string, string>,
  apiKey: string,
) {
  installCapture();
  const handle = connectPostgres(dbUrl, pino({ level: 'silent' }));
  const runtime = createRuntime(
    loadConfig({ ...env, LOG_LEVEL: 'silent' }),
    handle,
    pino({ level: 'silent' }),
    {
      redisPrefix: 'lkcap:',
    },
  );
  const app = buildApp(runtime.deps);
  await app.ready();
  while (runtime.deps.redis?.status !== 'ready') await new Promise((r) => setTimeout(r, 20));
  // the invalidation subscription turns the key cache on
  for (let i = 0; i < 100 && !runtime.deps.keyCache.isLive(); i++)
    await new Promise((r) => setTimeout(r, 20));
  const out = new Map<string, (Capture & { response: unknown })[]>();
  try {
    for (const s of all) {
      const shapes: (Capture & { response: unknown })[] = [];
      for (let shape = 0; shape < s.shapes; shape++) {
        const req = s.request(shape);
        const send = () =>
          app.inject({
            method: req.method,
            url: req.path,
            headers: {
              authorization: `Bearer ${apiKey}`,
              accept: 'application/json',
              ...(req.body ? { 'content-type': 'application/json' } : {}),
            },
            ...(req.body ? { payload: req.body } : {}),
          });
        // warm: key cache, prepared statements (not for requests that may not run twice)
        if (shape === 0 && !s.onlyOnce) await send();
        let response: unknown;
        const c = await capture(async () => {
          const res = await send();
          if (res.statusCode >= 300)
            throw new Error(`${s.id} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
          response = res.json();
        });
        shapes.push({ ...c, response });
      }
      out.set(s.id, shapes);
    }
  } finally {
    await app.close();
    await runtime.close();
  }
  return out;
}

async function measure(
  s: Scenario,
  server: ServerProcess,
  apiKey: string,
  dbUrl: string,
  shapes: (Capture & { response: unknown })[],
): Promise<Row> {
  // batches of a thousand saturate one list with two connections; more only queue
  const connections = s.connections ?? CONNECTIONS;
  // warm-up (JIT, prepared statements, pool connections), not measured
  await loadHttp(server.url, apiKey, (i) => s.request(i + 1_000_002), connections, WARMUP);
  const templates: RawTemplate[] = shapes.map((c, n) => ({
    queries: c.queries,
    vary: s.vary?.(n, c.response),
  }));
  // writes vary their SQL per request (vary), which a JSON file cannot carry: reads only
  const floorServer = s.vary ? undefined : await startFloor(dbUrl, shapes);
  const rounds: Record<'api' | 'raw' | 'floor', LoadResult[]> = { api: [], raw: [], floor: [] };
  let rssMb = 0;
  try {
    if (floorServer) {
      await loadHttp(floorServer.url, apiKey, (i) => s.request(i + 1_000_002), CONNECTIONS, WARMUP);
    }
    // The sides take turns, so a slow spell of the machine (seconds long here) falls on all
    // of them; each side's figure is its median round.
    for (let round = 0; round < ROUNDS; round++) {
      // request(0) and (1) were sent by the capture; each round's requests are new ones
      const first = 2 + round * 10_000_000;
      const next = (i: number) => s.request(first + i);
      server.resetPeak();
      rounds.api.push(await loadHttp(server.url, apiKey, next, connections, SECONDS / ROUNDS));
      rssMb = Math.max(rssMb, server.peakRssMb());
      rounds.raw.push(await loadRaw(dbUrl, POOL, templates, connections, SECONDS / ROUNDS, first));
      if (floorServer) {
        rounds.floor.push(
          await loadHttp(floorServer.url, apiKey, next, CONNECTIONS, SECONDS / ROUNDS),
        );
      }
    }
  } finally {
    await floorServer?.stop();
  }
  const errors = (side: LoadResult[]) => side.reduce((n, r) => n + r.errors, 0);
  if (errors(rounds.api) + errors(rounds.raw) + errors(rounds.floor) > 0) {
    throw new Error(
      `${errors(rounds.api)} failed API requests, ${errors(rounds.raw)} failed raw requests, ${errors(rounds.floor)} failed floor requests`,
    );
  }
  const api = medianRound(rounds.api);
  const raw = medianRound(rounds.raw);
  const floor = floorServer ? medianRound(rounds.floor) : undefined;
  const row: Row = {
    id: s.id,
    letter: s.letter,
    label: s.label,
    size: s.size,
    api,
    raw,
    floor,
    rssMb,
  };
  log(
    `${s.id.padEnd(22)} api ${fmt(api)} | raw ${fmt(raw)} | api/raw ${(api.rps / raw.rps).toFixed(2)}${floor ? ` | floor ${fmt(floor)} | floor/raw ${(floor.rps / raw.rps).toFixed(2)}` : ''} | rss ${rssMb.toFixed(0)} MB`,
  );
  return row;
}

let floorFiles = 0;

/** bench/servers/floorServer.ts for a scenario: HTTP + the Redis script + the same SQL. */
async function startFloor(
  dbUrl: string,
  shapes: (Capture & { response: unknown })[],
  { withRedis = true, port = PORT + 4 } = {},
): Promise<ServerProcess> {
  const file = path.join(os.tmpdir(), `listkeeper-floor-${process.pid}-${floorFiles++}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      templates: shapes.map((c) => ({ queries: c.queries, response: c.response })),
    }),
  );
  try {
    return await startServer({
      args: ['dist-bench/bench/servers/floorServer.js'],
      env: {
        DATABASE_URL: dbUrl,
        REDIS_URL: BENCH_REDIS_URL,
        BENCH_FLOOR_FILE: file,
        BENCH_FLOOR_REDIS: withRedis ? 'on' : 'off',
      },
      port,
    });
  } finally {
    rmSync(file, { force: true });
  }
}

const fmt = (r: LoadResult) =>
  `${r.rps.toFixed(0).padStart(6)} req/s p50 ${r.p50.toFixed(2)} p99 ${r.p99.toFixed(2)}`;

/**
 * The auth + limiter step: the service with it on and off (bench/servers/variantServer.ts), and — for
 * the bound — the floor server with and without its one Redis script, each pair compared
 * round by round (lib/pairedRounds.ts).
 */
async function authOverhead(
  env: Record<string, string>,
  apiKey: string,
  accountId: number,
  s: Scenario,
  dbUrl: string,
  shapes: (Capture & { response: unknown })[],
): Promise<AuthOverhead> {
  const variant = (mode: 'on' | 'off', port: number) =>
    startServer({
      args: ['dist-bench/bench/servers/variantServer.js', '--auth', mode],
      env: { ...env, BENCH_ACCOUNT_ID: String(accountId) },
      port,
    });
  const servers = await startServers([
    () => variant('off', PORT + 5),
    () => variant('on', PORT + 1),
    () => startFloor(dbUrl, shapes, { withRedis: false, port: PORT + 7 }),
    () => startFloor(dbUrl, shapes, { withRedis: true, port: PORT + 6 }),
  ]);
  const [off, on, floorOff, floorOn] = servers.map(
    (server) => () =>
      loadHttp(server.url, apiKey, (i) => s.request(i), CONNECTIONS, AUTH_ROUND_SECONDS),
  ) as [Load, Load, Load, Load];
  try {
    for (const load of [off, on, floorOff, floorOn]) await load();
    const service = await pairedRounds(AUTH_ROUNDS, off, on);
    const floor = await pairedRounds(AUTH_ROUNDS, floorOff, floorOn);
    log(
      `auth+limiter on/off: ${service.ratio.toFixed(2)} (median of ${AUTH_ROUNDS} paired rounds; ${fmt(service.b)} vs ${fmt(service.a)}); floor with/without the script: ${floor.ratio.toFixed(2)}`,
    );
    return { service, floor };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

type Load = () => Promise<LoadResult>;

async function twoInstances(env: Record<string, string>, apiKey: string, s: Scenario) {
  const [one, two] = (await startServers([
    () => startServer({ env, port: PORT + 2 }),
    () => startServer({ env, port: PORT + 3 }),
  ])) as [ServerProcess, ServerProcess];
  const seconds = SECONDS / ROUNDS;
  const single: number[] = [];
  const double: number[] = [];
  try {
    for (const srv of [one, two]) {
      await loadHttp(srv.url, apiKey, (i) => s.request(i), CONNECTIONS, WARMUP);
    }
    for (let round = 0; round < ROUNDS; round++) {
      single.push((await loadHttp(one.url, apiKey, (i) => s.request(i), CONNECTIONS, seconds)).rps);
      const both = await Promise.all(
        [one, two].map((srv) =>
          loadHttp(srv.url, apiKey, (i) => s.request(i), CONNECTIONS / 2, seconds),
        ),
      );
      double.push(both[0]!.rps + both[1]!.rps);
    }
  } finally {
    await Promise.all([one.stop(), two.stop()]);
  }
  const result = { single: median(single), double: median(double) };
  log(
    `two instances / one: ${(result.double / result.single).toFixed(2)} (${result.double.toFixed(0)} vs ${result.single.toFixed(0)} req/s)`,
  );
  return result;
}

function machineFacts() {
  const pg = (() => {
    try {
      return execFileSync('psql', ['-XAtc', 'show server_version', BENCH_SERVER], {
        encoding: 'utf8',
      }).trim();
    } catch {
      return 'unknown';
    }
  })();
  return {
    cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}`,
    memoryGb: (os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    postgres: pg,
    kernel: os.release(),
    loadAverage: os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' '),
  };
}

runEntry(main);
