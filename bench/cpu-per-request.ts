/**
 * Where one request's CPU goes: the server (`node dist/main.js`), Postgres and Redis, in µs of
 * CPU per request, read from /proc before and after a fixed-duration autocannon run against
 * one API URL of the bench data set. Throughput on this 2-core VM swings ±25 % between runs
 * of a few seconds; CPU per request moves much less, so it is the figure to compare before
 * and after a change to the request path.
 *
 *   npm run build && npx tsx bench/cpu-per-request.ts '/api/v1/getListSchema?schema_id=…'
 *     [--seconds 8] [--connections 10] [--profile]   (--profile: node --cpu-prof, into $TMPDIR)
 *     [--rate N]   (N requests/s in all, below saturation: the CPU figures then compare
 *                   work without the scheduling noise of a saturated 2-core machine)
 *     [--auth on|off]   (the auth + limiter variants of bench/variantServer.ts instead of
 *                        dist/main.js; needs `npx tsc -p tsconfig.bench.json`)
 * Uses the `lk_bench` database built by `npm run bench` (its API key) and Redis database 7.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { benchServerEnv, diagnosisArgs } from './diagnosis.js';
import { startServer } from './server.js';

const { path, flag, option } = diagnosisArgs('cpu-per-request.ts <API path with query> [options]');
const TICKS_PER_SECOND = 100;

/** utime + stime ticks of every process, by pid, with its command name */
function snapshot(): Map<string, { comm: string; ticks: number }> {
  const out = new Map<string, { comm: string; ticks: number }>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      out.set(pid, { comm, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

const { apiKey, env } = await benchServerEnv();
const auth = flag('auth') ? option('auth', 'on') : undefined;
const server = await startServer({
  args: [
    ...(flag('profile') ? ['--cpu-prof', `--cpu-prof-dir=${os.tmpdir()}`] : []),
    ...(auth ? ['dist-bench/bench/variantServer.js', '--auth', auth] : ['dist/main.js']),
  ],
  env,
  port: 20_900,
});
const run = (seconds: number) =>
  autocannon({
    url: `${server.url}${path}`,
    connections: Number(option('connections', '10')),
    duration: seconds,
    ...(flag('rate') ? { overallRate: Number(option('rate', '0')) } : {}),
    headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
  });
try {
  await run(3); // warm-up: JIT, prepared statements, pool
  const before = snapshot();
  const result = await run(Number(option('seconds', '8')));
  const after = snapshot();
  const ok = result.requests.total - result.non2xx;
  const perRequest = new Map<string, number>();
  for (const [pid, now] of after) {
    const name = pid === String(server.pid) ? 'server' : now.comm.replace(/\d+$/, '');
    const used = now.ticks - (before.get(pid)?.ticks ?? 0);
    if (used > 0) perRequest.set(name, (perRequest.get(name) ?? 0) + used);
  }
  console.log(
    `${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, ${result.non2xx} non-2xx`,
  );
  for (const [name, ticks] of [...perRequest].sort((a, b) => b[1] - a[1]).slice(0, 5)) {
    console.log(
      `  ${((ticks / TICKS_PER_SECOND / ok) * 1e6).toFixed(0).padStart(6)} µs CPU/request  ${name}`,
    );
  }
} finally {
  await server.stop();
}
