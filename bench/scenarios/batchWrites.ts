/**
 * updateListItems and deleteListItems as a bot backend sends them: batches of 1,000 records of
 * one list, through HTTP to the built server, one request after another. The list first holds
 * RECORDS records of the data set's ten fields (loaded with addListItems); each update batch
 * changes two fields (a string and a number slot) of 1,000 distinct records, each delete
 * batch removes 1,000.
 *
 * `npm run bench:batches` (`--help` for its options). Results: docs/bench/batches.md and
 * .json (the temp directory with --smoke).
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/infra/db/client.js';
import { benchArgs } from '../lib/args.js';
import { freshList, loadRecords } from '../lib/freshList.js';
import { reportDir, writeReportFiles, writtenBy } from '../lib/reportFiles.js';
import { benchServiceEnv, startServer } from '../lib/serverProcess.js';
import { quantile } from '../lib/stats.js';
import { runEntry } from '../lib/entry.js';

const args = benchArgs({
  usage:
    'npm run bench:batches -- [options]   (or npx tsx bench/scenarios/batchWrites.ts [options])',
  about:
    'updateListItems and deleteListItems in batches of 1,000 records, one request at a time,\nthrough HTTP to the built server: records a second and p50 per batch.',
  flags: { smoke: 'small batches into a small list, report in the temp directory' },
  options: {
    records: 'N  records in the list first (default 100000; 4000 with --smoke)',
    batches: 'N  batches of each method (default 20; 2 with --smoke)',
  },
});
const SMOKE = args.flag('smoke');
const RECORDS = args.number('records', SMOKE ? 4_000 : 100_000);
const BATCHES = args.number('batches', SMOKE ? 2 : 20);
const BATCH = SMOKE ? 500 : 1000;
const PORT = 3917;

interface Step {
  method: string;
  requests: number;
  seconds: number;
  recordsPerSecond: number;
  p50Ms: number;
}

async function main() {
  if (RECORDS < 2 * BATCHES * BATCH) throw new Error('--records must hold every batch twice');
  const fresh = await freshList(SMOKE ? 'lk_batches_smoke' : 'lk_batches');
  const server = await startServer({ env: benchServiceEnv(fresh.url), port: PORT });
  const post = async (method: string, body: unknown, expected: number) => {
    const started = process.hrtime.bigint();
    const res = await fetch(`${server.url}/api/v1/${method}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${fresh.account.api_key}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== expected) throw new Error(`${method}: ${res.status} ${text.slice(0, 300)}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  try {
    await loadRecords(server.url, fresh.account.api_key, fresh.listId, RECORDS);
    await fresh.handle.db.execute(sql`analyze list_items`);
    const ids = (
      await queryRows<{ id: string }>(
        fresh.handle.db,
        sql`select id from list_items where (owner_id, list_key) =
          (select owner_id, hashtextextended(id, 0) from list_schemas where id = ${fresh.listId})
          order by id`,
      )
    ).map((r) => r.id);
    // updates take the first half of the records, deletes the second: no batch meets another's
    const batchOf = (b: number, offset: number) =>
      ids.slice(offset + b * BATCH, offset + (b + 1) * BATCH);
    const steps: Step[] = [];
    const measure = async (method: string, run: (b: number) => Promise<number>) => {
      const times: number[] = [];
      const started = process.hrtime.bigint();
      for (let b = 0; b < BATCHES; b++) times.push(await run(b));
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      times.sort((x, y) => x - y);
      const step = {
        method,
        requests: BATCHES,
        seconds,
        recordsPerSecond: (BATCHES * BATCH) / seconds,
        p50Ms: quantile(times, 0.5),
      };
      console.log(
        `${method} ×${BATCH}: ${step.recordsPerSecond.toFixed(0)} records/s, p50 ${step.p50Ms.toFixed(0)} ms`,
      );
      steps.push(step);
    };
    await measure('updateListItems', (b) =>
      post(
        'updateListItems',
        {
          schema_id: fresh.listId,
          items: batchOf(b, 0).map((item_id, i) => ({
            item_id,
            data: { s1: `changed ${b}`, n2: i },
          })),
        },
        200,
      ),
    );
    await measure('deleteListItems', (b) =>
      post(
        'deleteListItems',
        { schema_id: fresh.listId, item_ids: batchOf(b, BATCHES * BATCH) },
        204,
      ),
    );
    await write(steps);
  } finally {
    await server.stop();
    await fresh.handle.close();
  }
}

async function write(steps: Step[]) {
  const md = [
    '# Batch writes benchmark',
    '',
    `${writtenBy('npm run bench:batches', SMOKE)}: ${BATCHES} batches of ${BATCH} records, one request at a time, into a list of ${RECORDS.toLocaleString('en')} records of ten typed fields, through HTTP to the built server.`,
    '',
    '| method | records/s | p50 per batch |',
    '| --- | --- | --- |',
    ...steps.map(
      (s) => `| ${s.method} | ${s.recordsPerSecond.toFixed(0)} | ${s.p50Ms.toFixed(0)} ms |`,
    ),
    '',
  ].join('\n');
  await writeReportFiles(reportDir(SMOKE), {
    'batches.md': md,
    'batches.json': JSON.stringify({ records: RECORDS, batch: BATCH, steps }),
  });
}

runEntry(main);
