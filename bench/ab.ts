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
import { benchServerEnv, diagnosisArgs } from './diagnosis.js';
import { loadHttp } from './load.js';
import { pairedRounds } from './pairedRounds.js';
import { startServer } from './server.js';

const { path, option } = diagnosisArgs('ab.ts <API path with query> --a CMD --b CMD [options]');
const rounds = Number(option('rounds', '10'));
const seconds = Number(option('seconds', '2'));
const connections = Number(option('connections', '10'));
const { apiKey, env } = await benchServerEnv();
const servers = await Promise.all(
  ['a', 'b'].map((side, n) =>
    startServer({ args: option(side, 'dist/main.js').split(' '), env, port: 20_910 + n }),
  ),
);
const load = (url: string, s: number) =>
  loadHttp(url, apiKey, () => ({ method: 'GET', path }), connections, s);
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
