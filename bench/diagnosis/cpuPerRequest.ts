/**
 * Where one request's CPU goes: the server (`node dist/main.js`), Postgres and Redis, in µs of
 * CPU per request, read from /proc before and after a fixed-duration autocannon run against
 * one API URL of the bench data set. Throughput on a small shared machine drifts between runs
 * of a few seconds; CPU per request moves much less, so it is the figure to compare before
 * and after a change to the request path.
 *
 *   npm run build && npx tsx bench/diagnosis/cpuPerRequest.ts '/api/v1/getListSchema?schema_id=…'
 * Uses the `lk_bench` database built by `npm run bench` (its API key), or with `--data sweep`
 * the `lk_sweep` one of `npm run bench:sweep`, and Redis database 7. First-time reads, each
 * request a bound never sent before, of the service or the twin (the sweep's 1M list):
 *
 *   npx tsx bench/diagnosis/cpuPerRequest.ts --data sweep --shape 'number <' --share 0.01 [--side twin]
 */
import { readdirSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import qs from 'qs';
import { benchArgs } from '../lib/args.js';
import {
  apiPath,
  benchServerEnv,
  diagnosisData,
  firstTimeScale,
  sweepListId,
} from '../lib/diagnosisEnv.js';
import { cpuTicks, TICKS_PER_SECOND } from '../lib/procfs.js';
import { startServer } from '../lib/serverProcess.js';
import { SHAPES } from '../lib/sweepShapes.js';

const args = benchArgs({
  usage:
    'npx tsx bench/diagnosis/cpuPerRequest.ts <API path with query> [options]   (or --twin … without a path)',
  about:
    'µs of CPU per request of the server, Postgres, Redis and the load generator on one API path\n(`--data`: the data set; `npm run build` first).',
  positionals: '<API path with query>',
  flags: {
    profile: 'run the server under node --cpu-prof, the profile into the temp directory',
    post: 'with --shape, POST getListItems with a JSON body as the sweep sends it (default GET)',
  },
  options: {
    data: 'bench|sweep  the data set: lk_bench (default) or lk_sweep (`npm run bench:sweep`)',
    database:
      "NAME  the data set's database under another name (with --data sweep: lk_sweep_o4000000)",
    seconds: 'N  seconds measured, after 3 s of warm-up (default 8)',
    connections: 'N  load connections (default 10)',
    rate: 'N  requests a second in all, below saturation: CPU figures without the scheduling\n      noise of a saturated machine (default: as fast as answered)',
    auth: 'on|off|script  the auth + limiter variants of bench/servers/variantServer.ts instead\n      of dist/main.js (needs `npx tsc -p tsconfig.bench.json`)',
    twin: "SQL  with --data sweep: the sweep's plain twin instead of the service (no API path), its\n      page and count of this WHERE on --table (`city = $1`; needs\n      `npx tsc -p tsconfig.bench.json`)",
    shape: `NAME  with --data sweep, first-time reads of a sweep shape (${SHAPES.map((s) => s.name).join(' | ')})\n      on its 1M list instead of a path: each a bound never sent before (the share scaled by 0.5–1.5)`,
    share: "S  --shape's share of the list (e.g. 0.01)",
    side: "api|twin  with --shape, the service (default) or the sweep's plain twin",
    value: "TEXT  the twin WHERE's $1",
    order: "SQL  the twin page's ORDER BY (default 'id')",
    table: "NAME  the twin's table (default plain_1000000; the sweep's sizes: plain_10000, …)",
    node: 'FLAGS  node flags for the server, space-separated (e.g. --node=--trace-gc)',
    log: "FILE  the server's stdout and stderr appended to FILE (e.g. --node's GC trace)",
  },
});
const shape = SHAPES.find((s) => s.name === args.text('shape'));
if (args.text('shape') !== undefined && !shape) throw new Error(`no shape ${args.text('shape')}`);
const twin =
  args.text('twin') ?? (shape && args.text('side') === 'twin' ? shape.plainWhere : undefined);
const path =
  twin !== undefined ? '/read' : shape ? '/api/v1/getListItems' : apiPath(args.positionals);

/** utime + stime ticks of every process, by pid, with its command name */
function snapshot(): Map<string, { comm: string; ticks: number }> {
  const out = new Map<string, { comm: string; ticks: number }>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      out.set(pid, cpuTicks(pid));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

const { apiKey, env } = await benchServerEnv(
  diagnosisData(args.text('data')),
  args.text('database'),
);
const auth = args.text('auth');
const entry =
  twin !== undefined
    ? ['dist-bench/bench/servers/twinServer.js']
    : auth
      ? ['dist-bench/bench/servers/variantServer.js', '--auth', auth]
      : ['dist/main.js'];
const server = await startServer({
  args: [
    ...(args.flag('profile') ? ['--cpu-prof', `--cpu-prof-dir=${os.tmpdir()}`] : []),
    ...(args.text('node')?.split(' ').filter(Boolean) ?? []),
    ...entry,
  ],
  env,
  port: 20_900,
  ...(args.text('log') !== undefined ? { logFile: args.text('log') } : {}),
});
/** The twin's read: the page and the count a generic tool would send (servers/twinServer.ts). */
const twinTable = args.text('table') ?? 'plain_1000000';
const twinRead = (where: string, values: unknown[] = [args.text('value')]) => ({
  method: 'POST' as const,
  body: JSON.stringify({
    page: `select * from ${twinTable} where ${where} order by ${shape?.plainOrder ?? args.text('order') ?? 'id'} limit 50`,
    count: `select count(*) as n from ${twinTable} where ${where}`,
    values,
  }),
  headers: { 'content-type': 'application/json' },
});
/** --shape's list: the sweep's largest */
const listId = shape ? await sweepListId(env.DATABASE_URL!) : undefined;
let sent = 0;
/** --shape's next request: a bound never sent before, repeating after 10,007 requests */
function nextFirstTime() {
  const s = args.number('share', 0.01);
  const scale = firstTimeScale(sent++);
  if (twin !== undefined) return twinRead(twin, shape!.plainValues(s, scale));
  const query = { schema_id: listId, filters: shape!.filters(s, scale), order_by: shape!.orderBy };
  if (args.flag('post'))
    return {
      method: 'POST' as const,
      body: JSON.stringify({ ...query, limit: 50 }),
      headers: {
        authorization: `Bearer ${apiKey}`,
        accept: 'application/json',
        'content-type': 'application/json',
      },
    };
  return { method: 'GET' as const, path: `${path}?${qs.stringify(query)}` };
}
const run = (seconds: number) =>
  autocannon({
    url: `${server.url}${path}`,
    connections: args.number('connections', 10),
    duration: seconds,
    ...(args.text('rate') !== undefined ? { overallRate: args.number('rate', 0) } : {}),
    ...(twin !== undefined
      ? twinRead(twin)
      : { headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' } }),
    ...(shape
      ? { requests: [{ setupRequest: (request) => ({ ...request, ...nextFirstTime() }) }] }
      : {}),
  });

try {
  await run(3); // warm-up: JIT, prepared statements, pool
  const before = snapshot();
  const result = await run(args.number('seconds', 8));
  const after = snapshot();
  const ok = result.requests.total - result.non2xx;
  const perRequest = new Map<string, number>();
  for (const [pid, now] of after) {
    const name = pid === String(server.pid) ? 'server' : now.comm.replace(/\d+$/, '');
    const used = now.ticks - (before.get(pid)?.ticks ?? 0);
    if (used > 0) perRequest.set(name, (perRequest.get(name) ?? 0) + used);
  }
  console.log(
    `${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms, ${result.non2xx} non-2xx`,
  );
  for (const [name, ticks] of [...perRequest].sort((a, b) => b[1] - a[1]).slice(0, 5)) {
    console.log(
      `  ${((ticks / TICKS_PER_SECOND / ok) * 1e6).toFixed(0).padStart(6)} µs CPU/request  ${name}`,
    );
  }
} finally {
  await server.stop();
}
