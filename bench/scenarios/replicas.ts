/**
 * Read replicas: how many reads a replica takes off the primary, and what choosing costs.
 * A throwaway primary cluster and its streaming replica (pg_basebackup, as the tests do),
 * 20,000 records, and two servers on them: one reading from the primary only, one with
 * DATABASE_REPLICA_URLS. Both sit on this one machine with the two clusters, so the
 * replica adds no CPU: the figures are the share of reads it serves and the cost of the
 * routing, not a scale-out factor.
 *
 *   npm run bench:replicas [-- --smoke]
 */
import { startPostgresCluster, startReplica } from '../../test/helpers/postgresCluster.js';
import { benchArgs } from '../lib/args.js';
import { recordWithoutContact } from '../lib/dataset.js';
import { freshList, loadRecords } from '../lib/freshList.js';
import { loadHttp, type HttpRequest } from '../lib/load.js';
import { pairedRounds } from '../lib/pairedRounds.js';
import { benchServiceEnv, startServer } from '../lib/serverProcess.js';

const smoke = benchArgs({
  usage: 'npm run bench:replicas [-- --smoke]   (or npx tsx bench/scenarios/replicas.ts)',
  about:
    'A server with a streaming replica against one reading from the primary only: the share of\nreads the replica serves and what the routing costs reads and writes.',
  flags: { smoke: 'fewer records, shorter and fewer rounds' },
}).flag('smoke');
const RECORDS = smoke ? 2_000 : 20_000;
const ROUNDS = smoke ? 2 : 8;
const SECONDS = smoke ? 1 : 3;

const primary = await startPostgresCluster();
const fresh = await freshList('lk_replicas', primary.url());
const { account, listId } = fresh;
const replica = await startReplica(primary);
const replicaUrl = replica.url('lk_replicas');
const servers = {
  primaryOnly: await startServer({ env: benchServiceEnv(fresh.url), port: 20_940 }),
  withReplica: await startServer({
    env: { ...benchServiceEnv(fresh.url), DATABASE_REPLICA_URLS: replicaUrl },
    port: 20_941,
  }),
};

/** Reads the replica served, and getListItems answered, so far: the server's /metrics. */
async function counts(url: string): Promise<{ served: number; reads: number }> {
  // the last answers' counts are taken after they are sent
  await new Promise((r) => setTimeout(r, 200));
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return {
    served: value(/^listkeeper_db_replica_reads_total\{replica="1",outcome="served"\} (\d+)/m),
    reads: value(/^listkeeper_api_requests_total\{method="getListItems",status="200"\} (\d+)/m),
  };
}

/** The share of getListItems the replica served while `run` ran. */
async function servedDuring<T>(url: string, run: () => Promise<T>): Promise<[T, string]> {
  const before = await counts(url);
  const result = await run();
  const after = await counts(url);
  // reads cut off when a load run ends were served but never answered: at most 100 %
  const share = Math.min(
    100,
    (100 * (after.served - before.served)) / Math.max(1, after.reads - before.reads),
  );
  return [result, `${share.toFixed(1)} %`];
}

let k = RECORDS;
const read = (): HttpRequest => ({
  method: 'GET',
  path: `/api/v1/getListItems?schema_id=${listId}&filters[s1]=v7&order_by=n1,desc&limit=50`,
});
const write = (): HttpRequest => ({
  method: 'POST',
  path: '/api/v1/addListItem',
  body: JSON.stringify({ schema_id: listId, data: recordWithoutContact(k++) }),
});

try {
  await loadRecords(servers.primaryOnly.url, account.api_key, listId, RECORDS);
  // the replica has replayed the load and the server has polled it
  await new Promise((r) => setTimeout(r, 1000));
  console.log(`replicas bench: ${RECORDS} records, ${ROUNDS} paired rounds of ${SECONDS} s`);

  const reads = (url: string) => loadHttp(url, account.api_key, read, 10, SECONDS);
  await reads(servers.primaryOnly.url);
  await reads(servers.withReplica.url);
  const [readOnly, readShare] = await servedDuring(servers.withReplica.url, () =>
    pairedRounds(
      ROUNDS,
      () => reads(servers.primaryOnly.url),
      () => reads(servers.withReplica.url),
    ),
  );

  // what a write pays for its recorded position (one more query, one more Redis call)
  const writesOnly = (url: string) => loadHttp(url, account.api_key, write, 10, SECONDS);
  const writeCost = await pairedRounds(
    ROUNDS,
    () => writesOnly(servers.primaryOnly.url),
    () => writesOnly(servers.withReplica.url),
  );

  // the same account writing while it reads: its reads wait for the replica to replay
  const [[writes, mixedReads], mixedShare] = await servedDuring(servers.withReplica.url, () =>
    Promise.all([
      loadHttp(servers.withReplica.url, account.api_key, write, 2, SECONDS * 3),
      loadHttp(servers.withReplica.url, account.api_key, read, 8, SECONDS * 3),
    ]),
  );
  const errors =
    readOnly.a.errors + readOnly.b.errors + writeCost.b.errors + writes.errors + mixedReads.errors;
  if (errors > 0) throw new Error(`${errors} errors`);

  console.log('| workload | primary only | with a replica | reads served by the replica |');
  console.log('| --- | --- | --- | --- |');
  console.log(
    `| getListItems only (10 connections) | ${readOnly.a.rps.toFixed(0)} req/s, p50 ${readOnly.a.p50.toFixed(2)} ms | ${readOnly.ratio.toFixed(2)}×, p50 ${readOnly.b.p50.toFixed(2)} ms | ${readShare} |`,
  );
  console.log(
    `| addListItem only (10 connections) | ${writeCost.a.rps.toFixed(0)} req/s, p50 ${writeCost.a.p50.toFixed(2)} ms | ${writeCost.ratio.toFixed(2)}×, p50 ${writeCost.b.p50.toFixed(2)} ms | — |`,
  );
  console.log(
    `| same account: addListItem (2) + getListItems (8) | — | ${writes.rps.toFixed(0)} writes/s, ${mixedReads.rps.toFixed(0)} reads/s | ${mixedShare} |`,
  );
} finally {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
  await fresh.handle.close();
  await replica.destroy();
  await primary.destroy();
}
