/**
 * A/B of two server commands on one API path: both run at once, and short load rounds
 * alternate between them, so the drift of this 2-core VM (throughput swings ±25 % between
 * runs of a few seconds) falls on both sides alike. Prints each round and the median of the
 * per-round ratios B/A.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && npx tsx bench/ab.ts '/api/v1/…' \
 *     --a 'dist/main.js' --b 'dist-bench/bench/variantServer.js --auth off' \
 *     [--rounds 10] [--seconds 2] [--connections 10]
 * Uses the `lk_bench` database built by `npm run bench` (its API key) and Redis database 7.
 */
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { connectPostgres, queryRows } from '../src/db/client.js';
import { databaseUrl } from './database.js';
import { ENCRYPTION_KEY } from './dataset.js';
import { loadHttp } from './load.js';
import { pairedRounds } from './pairedRounds.js';
import { startServer } from './server.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const path = args.find((a) => a.startsWith('/'));
if (!path) throw new Error('usage: ab.ts <API path with query> --a CMD --b CMD [options]');
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbUrl = databaseUrl(SERVER, 'lk_bench');
const rounds = Number(option('rounds', '10'));
const seconds = Number(option('seconds', '2'));
const connections = Number(option('connections', '10'));

const handle = connectPostgres(dbUrl, pino({ level: 'silent' }));
const [meta] = await queryRows<{ key: string; accountId: string }>(
  handle.db,
  sql`select dataset->>'apiKey' as key, dataset->>'accountId' as "accountId" from bench_meta limit 1`,
);
await handle.close();
const env = {
  DATABASE_URL: dbUrl,
  REDIS_URL: 'redis://127.0.0.1:6379/7',
  ENCRYPTION_KEY,
  RATE_LIMIT_PER_MINUTE: '1000000000',
  LOG_LEVEL: 'warn',
  BENCH_ACCOUNT_ID: meta!.accountId,
};
const servers = await Promise.all(
  ['a', 'b'].map((side, n) =>
    startServer({ args: option(side, 'dist/main.js').split(' '), env, port: 20_910 + n }),
  ),
);
const load = (url: string, s: number) =>
  loadHttp(url, meta!.key, () => ({ method: 'GET', path: path! }), connections, s);
try {
  for (const server of servers) await load(server.url, 2);
  const result = await pairedRounds(
    rounds,
    () => load(servers[0]!.url, seconds),
    () => load(servers[1]!.url, seconds),
    (round, a, b) =>
      console.log(
        `round ${round + 1}: A ${a.rps.toFixed(0)} B ${b.rps.toFixed(0)} req/s, B/A ${(b.rps / a.rps).toFixed(2)}`,
      ),
  );
  console.log(
    `median B/A ${result.ratio.toFixed(3)} (A p50 ${result.a.p50.toFixed(2)} ms, B p50 ${result.b.p50.toFixed(2)} ms)`,
  );
} finally {
  await Promise.all(servers.map((server) => server.stop()));
}
