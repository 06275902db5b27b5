/**
 * A/B of two server commands on one API path: both run at once, and short load rounds
 * alternate between them, so the drift of a small shared machine falls on both sides alike
 * (docs/benchmarks.md, "How it works"). Prints each round and the median of the per-round
 * ratios B/A.
 *
 *   npm run build && npx tsc -p tsconfig.bench.json && npx tsx bench/diagnosis/ab.ts \
 *     '/api/v1/…' --a 'dist/main.js' --b 'dist-bench/bench/servers/variantServer.js --auth off'
 * Uses the `lk_bench` database built by `npm run bench` (its API key), or with `--data sweep`
 * the `lk_sweep` one of `npm run bench:sweep`, and Redis database 7.
 */
import { benchArgs } from '../lib/args.js';
import { apiPath, benchServerEnv, diagnosisData } from '../lib/diagnosisEnv.js';
import { loadHttp } from '../lib/load.js';
import { printPairedRounds } from '../lib/pairedRounds.js';
import { startServer, startServers } from '../lib/serverProcess.js';

const args = benchArgs({
  usage: 'npx tsx bench/diagnosis/ab.ts <API path with query> --a CMD --b CMD [options]',
  about:
    'Two server commands (what follows `node`) on one API path in paired rounds: each round,\nthe median round of each side and the median of the per-round ratios B/A.',
  positionals: '<API path with query>',
  options: {
    data: 'bench|sweep  the data set: lk_bench (default) or lk_sweep (`npm run bench:sweep`)',
    a: "CMD  side A (default 'dist/main.js')",
    b: "CMD  side B (default 'dist/main.js')",
    rounds: 'N  paired rounds (default 10)',
    seconds: 'N  seconds per side and round (default 2)',
    connections: 'N  load connections (default 10)',
  },
});
const path = apiPath(args.positionals);
const rounds = args.number('rounds', 10);
const seconds = args.number('seconds', 2);
const connections = args.number('connections', 10);
const { apiKey, env } = await benchServerEnv(diagnosisData(args.text('data')));
const servers = await startServers(
  (['a', 'b'] as const).map(
    (side, n) => () =>
      startServer({ args: (args.text(side) ?? 'dist/main.js').split(' '), env, port: 20_910 + n }),
  ),
);
const load = (url: string, s: number) =>
  loadHttp(url, apiKey, () => ({ method: 'GET', path }), connections, s);
try {
  for (const server of servers) await load(server.url, 2);
  await printPairedRounds(
    rounds,
    () => load(servers[0]!.url, seconds),
    () => load(servers[1]!.url, seconds),
  );
} finally {
  await Promise.all(servers.map((server) => server.stop()));
}
