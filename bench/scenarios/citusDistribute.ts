/**
 * `npm run bench:citus-distribute -- --cluster URL`: an existing single-node database of
 * 1,000,000 records distributed in place on a Citus cluster (scripts/citus/cluster.sh), by the
 * service's own placement step (`npm run migrate`), in each CITUS_DISTRIBUTION mode — while
 * the service serves that database: a reader (getListItems, 1 % filter, exact total, nothing
 * remembered) and a writer (addListItem into the same list), one request at a time each.
 * Prints how long the placement took and what each of them got meanwhile.
 *
 * The database is loaded once on the coordinator before `citus` is placed in it (the sweep's
 * loader) and copied for each run; each run joins the copy to the cluster with the service
 * already running on it, then runs the placement.
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { benchArgs } from '../lib/args.js';
import {
  clusterNodes,
  copyOntoCluster,
  dropFromCluster,
  joinCluster,
  sweepListWithoutTwin,
} from '../lib/citusCluster.js';
import { runEntry } from '../lib/entry.js';
import { startProbe, window } from '../lib/probe.js';
import { benchServiceEnv, startServer } from '../lib/serverProcess.js';
import { insertedRecord } from '../lib/sweepBench.js';
import { SHAPES } from '../lib/sweepShapes.js';

const args = benchArgs({
  usage: 'npm run bench:citus-distribute -- --cluster URL [options]',
  about:
    'An existing database distributed in place on a Citus cluster by the placement step, in each\nCITUS_DISTRIBUTION mode, while a reader and a writer use the service on it.',
  options: {
    cluster: 'URL  the coordinator of scripts/citus/cluster.sh (workers on the next two ports)',
    records: 'N  records in the list (default 1000000)',
    modes: 'LIST  transaction,online (default both), run in this order each round',
    rounds: 'N  rounds of all modes (default 1)',
    port: 'N  the service’s port (default from the process id)',
  },
});
const cluster = args.text('cluster');
if (!cluster) throw new Error('--cluster URL is required (the coordinator)');
const records = args.number('records', 1_000_000);
const modes = args.list('modes') ?? ['transaction', 'online'];
const rounds = args.number('rounds', 1);
const port = args.number('port', 23_000 + 4 * (process.pid % 1000));
/** before and after the placement, the probes' baseline */
const CALM_MS = 3000;

runEntry(async () => {
  const source = `lk_citus_src_${records}`;
  const data = await sweepListWithoutTwin(clusterNodes(cluster)[0]!, source, records, (l) =>
    console.log(l),
  );
  const listId = data.lists[records]!;
  const shape = SHAPES[0]!;
  console.log(
    `${records} records; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (let round = 0; round < rounds; round++) {
    for (const mode of modes) {
      const url = await copyOntoCluster(cluster, source, 'lk_citus_place');
      const logFile = `${os.tmpdir()}/citus-distribute-${mode}-${round}.log`;
      const server = await startServer({ env: benchServiceEnv(url), port, logFile });
      try {
        await joinCluster(url);
        const reader = startProbe(server.url, data.apiKey, () => ({
          method: 'POST',
          path: '/api/v1/getListItems',
          body: JSON.stringify({
            schema_id: listId,
            filters: shape.filters(0.01),
            order_by: shape.orderBy,
            limit: 50,
          }),
        }));
        const writer = startProbe(server.url, data.apiKey, (i) => ({
          method: 'POST',
          path: '/api/v1/addListItem',
          body: JSON.stringify({ schema_id: listId, data: insertedRecord(records + i) }),
        }));
        await new Promise((r) => setTimeout(r, CALM_MS));
        const from = reader.now();
        const load = os.loadavg()[0]!;
        await promisify(execFile)(process.execPath, ['dist/migrateMain.js'], {
          env: { ...process.env, ...benchServiceEnv(url), CITUS_DISTRIBUTION: mode },
        });
        const to = reader.now();
        await new Promise((r) => setTimeout(r, CALM_MS));
        const [read, written] = [await reader.stop(), await writer.stop()];
        console.log(
          `\n${mode}, round ${round + 1}: placed in ${((to - from) / 1000).toFixed(1)} s (load average ${load.toFixed(2)} → ${os.loadavg()[0]!.toFixed(2)}); server log ${logFile}`,
        );
        for (const [who, samples] of [
          ['reader', read],
          ['writer', written],
        ] as const) {
          for (const [when, a, b] of [
            ['before', 0, from],
            ['during', from, to],
            ['after ', to, Infinity],
          ] as const) {
            const w = window(samples, a, b);
            console.log(
              `  ${who} ${when}: ${w.requests} requests, ${w.failed} failed, p50 ${w.p50.toFixed(1)} ms, p99 ${w.p99.toFixed(1)} ms, max ${w.max.toFixed(0)} ms${w.failures.length ? `\n    ${w.failures.join('\n    ')}` : ''}`,
            );
          }
        }
      } finally {
        await server.stop();
        await dropFromCluster(cluster, 'lk_citus_place');
      }
    }
  }
});
