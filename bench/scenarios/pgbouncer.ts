/**
 * What PG_PREPARED_STATEMENTS=off costs, and what PgBouncer's transaction pooling adds:
 * three servers on one database — direct with named statements (the default), direct
 * without, and through Debian's pgbouncer without — measured in paired rounds against the
 * default (the drift of the machine falls on both sides of a round alike).
 *
 *   npm run bench:pgbouncer [-- --smoke]
 */
import { startPgbouncer } from '../../test/helpers/pgbouncer.js';
import { benchArgs } from '../lib/args.js';
import { BENCH_SERVER } from '../lib/database.js';
import { recordWithoutContact } from '../lib/dataset.js';
import { freshList, loadRecords } from '../lib/freshList.js';
import { loadHttp, type HttpRequest } from '../lib/load.js';
import { pairedRounds } from '../lib/pairedRounds.js';
import { benchServiceEnv, startServer } from '../lib/serverProcess.js';

const smoke = benchArgs({
  usage: 'npm run bench:pgbouncer [-- --smoke]   (or npx tsx bench/scenarios/pgbouncer.ts)',
  about:
    'What PG_PREPARED_STATEMENTS=off costs, and what PgBouncer in transaction pooling adds, in\npaired rounds against a server with named statements on the same database.',
  flags: { smoke: 'fewer records, shorter and fewer rounds' },
}).flag('smoke');
const RECORDS = smoke ? 2_000 : 20_000;
const ROUNDS = smoke ? 2 : 8;
const SECONDS = smoke ? 1 : 3;
const CONNECTIONS = 10;

const fresh = await freshList(smoke ? 'lk_pgbouncer_smoke' : 'lk_pgbouncer');
const { handle, account, listId } = fresh;
// the records go in through the API's batch method on a server of its own
const loader = await startServer({ env: benchServiceEnv(fresh.url), port: 20_930 });
await loadRecords(loader.url, account.api_key, listId, RECORDS);
await loader.stop();

// a pool as large as the three servers' own (10 each): pgbouncer never makes a request wait
const pgbouncer = await startPgbouncer({ poolSize: 30, target: BENCH_SERVER });
const dbName = new URL(fresh.url).pathname.slice(1);
const sides = {
  named: benchServiceEnv(fresh.url),
  unnamed: { ...benchServiceEnv(fresh.url), PG_PREPARED_STATEMENTS: 'off' },
  pgbouncer: {
    ...benchServiceEnv(pgbouncer.url(dbName)),
    DATABASE_MIGRATION_URL: fresh.url,
    PG_PREPARED_STATEMENTS: 'off',
  },
};
const servers = {
  named: await startServer({ env: sides.named, port: 20_931 }),
  unnamed: await startServer({ env: sides.unnamed, port: 20_932 }),
  pgbouncer: await startServer({ env: sides.pgbouncer, port: 20_933 }),
};

let k = RECORDS;
const workloads: [string, () => HttpRequest][] = [
  ['getMe (key cached in the process)', () => ({ method: 'GET', path: '/api/v1/getMe' })],
  [
    'getListItems, 0.5 % filter, sorted, exact total',
    () => ({
      method: 'GET',
      path: `/api/v1/getListItems?schema_id=${listId}&filters[s1]=v7&order_by=n1,desc&limit=50`,
    }),
  ],
  [
    'addListItem',
    () => ({
      method: 'POST',
      path: '/api/v1/addListItem',
      body: JSON.stringify({ schema_id: listId, data: recordWithoutContact(k++) }),
    }),
  ],
];

try {
  console.log(
    `pgbouncer bench: ${RECORDS} records, ${ROUNDS} paired rounds of ${SECONDS} s, ${CONNECTIONS} connections`,
  );
  console.log('| request | named req/s (p50) | unnamed / named | via pgbouncer / named |');
  console.log('| --- | --- | --- | --- |');
  for (const [name, next] of workloads) {
    const load = (url: string) => loadHttp(url, account.api_key, next, CONNECTIONS, SECONDS);
    for (const server of Object.values(servers)) await load(server.url);
    const unnamed = await pairedRounds(
      ROUNDS,
      () => load(servers.named.url),
      () => load(servers.unnamed.url),
    );
    const pooled = await pairedRounds(
      ROUNDS,
      () => load(servers.named.url),
      () => load(servers.pgbouncer.url),
    );
    const errors = unnamed.b.errors + pooled.b.errors + unnamed.a.errors;
    if (errors > 0) throw new Error(`${name}: ${errors} errors`);
    console.log(
      `| ${name} | ${unnamed.a.rps.toFixed(0)} (${unnamed.a.p50.toFixed(2)} ms) | ${unnamed.ratio.toFixed(2)} (p50 ${unnamed.b.p50.toFixed(2)} ms) | ${pooled.ratio.toFixed(2)} (p50 ${pooled.b.p50.toFixed(2)} ms) |`,
    );
  }
} finally {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
  await pgbouncer.stop();
  await handle.close();
}
