/**
 * The change feed's costs (docs/changes.md):
 *
 * - write throughput with the feed against without it: addListItem (10 connections) and
 *   addListItems (1000 records a request, 2 connections) on the same server and database,
 *   "without" being a trigger that drops every change row before it is written (so the
 *   service runs the same code; the trigger's own small cost a row counts against
 *   "without"). Rounds alternate with/without/without/with so a growing list favours
 *   neither side;
 * - bytes per change: the `changes` table and its indexes over its rows, after the writes;
 * - getChanges at the head with nothing new (one connection, back to back), with 10,000
 *   and with 1,000,000 changes stored for the account, and reading through a backlog
 *   (1000 a page).
 *
 * Run by scenarios/changes.ts (`npm run bench:changes`) and by the suite. Results:
 * docs/bench/changes.md and changes.json (the temp directory with --smoke).
 */
import pg from 'pg';
import { encodeCursor } from '../../src/changes/cursor.js';
import { createAccount } from '../../src/operator/operatorAccounts.js';
import { createBot } from '../../src/operator/operatorBots.js';
import { createProject } from '../../src/operator/operatorProjects.js';
import { recordWithoutContact } from './dataset.js';
import { freshList } from './freshList.js';
import { loadHttp, type HttpRequest, type LoadResult } from './load.js';
import { reportDir, writeReportFiles, writtenBy } from './reportFiles.js';
import { benchServiceEnv, startServer } from './serverProcess.js';
import { medianRound, quantile } from './stats.js';

export interface ChangesBenchOptions {
  smoke: boolean;
  /** per measured round */
  seconds: number;
  port: number;
  log: (line: string) => void;
}

interface WriteRow {
  scenario: string;
  with: LoadResult;
  without: LoadResult;
  ratio: number;
}

interface HeadRow {
  stored: number;
  result: LoadResult;
}

const ROUNDS_FULL = 4;
const BATCH = 1000;

const DISCARD = `
  create or replace function bench_discard_changes() returns trigger language plpgsql as
    $$ begin return null; end $$;
  drop trigger if exists bench_discard_changes on changes;
  create trigger bench_discard_changes before insert on changes
    for each row execute function bench_discard_changes();`;
const KEEP = `drop trigger if exists bench_discard_changes on changes;`;

export async function runChangesBench(o: ChangesBenchOptions) {
  const fresh = await freshList(o.smoke ? 'lk_changes_smoke' : 'lk_changes');
  const { handle, account, listId } = fresh;
  const db = { url: fresh.url };
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  const server = await startServer({ env: benchServiceEnv(db.url), port: o.port });
  const writes: WriteRow[] = [];
  const head: HeadRow[] = [];
  let backlog: LoadResult | undefined;
  let bytesPerChange: number | undefined;
  try {
    let k = 0;
    const record = () => recordWithoutContact(k++);
    const single = (): HttpRequest => ({
      method: 'POST',
      path: '/api/v1/addListItem',
      body: JSON.stringify({ schema_id: listId, data: record() }),
    });
    const batch = (): HttpRequest => ({
      method: 'POST',
      path: '/api/v1/addListItems',
      body: JSON.stringify({
        schema_id: listId,
        items: Array.from({ length: o.smoke ? 50 : BATCH }, record),
      }),
    });
    for (const [scenario, next, connections] of [
      ['addListItem', single, 10],
      [`addListItems (${o.smoke ? 50 : BATCH} a request)`, batch, 2],
    ] as const) {
      const sides: Record<'with' | 'without', LoadResult[]> = { with: [], without: [] };
      const order = o.smoke ? ['with', 'without'] : ['with', 'without', 'without', 'with'];
      for (let round = 0; round < (o.smoke ? 1 : ROUNDS_FULL / 2); round++) {
        for (const side of order as ('with' | 'without')[]) {
          await admin.query(side === 'with' ? KEEP : DISCARD);
          const run = (seconds: number) =>
            loadHttp(server.url, account.api_key, next, connections, seconds);
          await run(o.smoke ? 0.3 : 1); // warm-up
          sides[side].push(await run(o.seconds));
        }
      }
      await admin.query(KEEP);
      const row = {
        scenario,
        with: medianRound(sides.with),
        without: medianRound(sides.without),
        ratio: 0,
      };
      row.ratio = row.with.rps / row.without.rps;
      writes.push(row);
      o.log(
        `  ${scenario}: ${row.with.rps.toFixed(0)}/s with the feed, ${row.without.rps.toFixed(0)}/s without (${(row.ratio * 100).toFixed(0)} %)`,
      );
      if (row.with.errors > 0 || row.without.errors > 0 || row.with.requests === 0)
        throw new Error(`${scenario}: requests failed`);
    }

    await admin.query('vacuum analyze changes');
    const size = await admin.query<{ bytes: string; n: string }>(
      `select pg_total_relation_size('changes') as bytes, count(*) as n from changes`,
    );
    bytesPerChange = Number(size.rows[0]!.bytes) / Number(size.rows[0]!.n);
    o.log(`  ${Number(size.rows[0]!.n)} changes stored, ${bytesPerChange.toFixed(0)} bytes each`);

    // reads at the head: an account of its own, its changes made in transactions of 1000
    const reader = await createAccount(handle.db, { email: 'reader@bench.test' });
    const readerProject = await createProject(handle.db, reader.id, 'Reader');
    const readerBot = await createBot(handle.db, readerProject.uuid, 'Reader bot');
    let stored = 0;
    const fill = async (upTo: number) => {
      for (; stored < upTo; stored += 1000) {
        await admin.query(
          `insert into changes (account_id, type, bot_id, contact_id, data)
           select $1, 'contact.updated', $2, g,
             json_build_object('id', g, 'name', 'Contact ' || g, 'messenger', 'telegram')
           from generate_series($3::bigint, $3::bigint + 999) g`,
          [reader.id, readerBot.id, stored + 1],
        );
      }
      await admin.query('analyze changes');
    };
    for (const size of o.smoke ? [1_000, 10_000] : [10_000, 1_000_000]) {
      await fill(size);
      const snapshot = await admin.query<{ s: string }>('select pg_current_snapshot()::text as s');
      const since = encodeCursor({ a: snapshot.rows[0]!.s, last: 0 });
      const atHead = (): HttpRequest => ({
        method: 'GET',
        path: `/api/v1/getChanges?since=${since}`,
      });
      const run = (seconds: number) => loadHttp(server.url, reader.api_key, atHead, 1, seconds);
      await run(o.smoke ? 0.3 : 1);
      const result = await run(o.seconds);
      head.push({ stored: size, result });
      o.log(`  head, ${size} stored: p50 ${result.p50.toFixed(2)} ms, ${result.rps.toFixed(0)}/s`);
    }

    // reading through the backlog from the oldest change, 1000 a page, cursor by cursor
    const started = process.hrtime.bigint();
    let cursor: string | undefined;
    let read = 0;
    const latencies: number[] = [];
    while (Number(process.hrtime.bigint() - started) / 1e9 < o.seconds) {
      const t0 = process.hrtime.bigint();
      const res = await fetch(
        `${server.url}/api/v1/getChanges?limit=1000${cursor ? `&since=${cursor}` : ''}`,
        { headers: { authorization: `Bearer ${reader.api_key}`, accept: 'application/json' } },
      );
      const body = (await res.json()) as {
        data: unknown[];
        meta: { next_cursor: string; has_more: boolean };
      };
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      read += body.data.length;
      cursor = body.meta.next_cursor;
      if (!body.meta.has_more) break;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    latencies.sort((a, b) => a - b);
    backlog = {
      requests: latencies.length,
      seconds,
      rps: read / seconds,
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
      errors: 0,
    };
    o.log(
      `  backlog: ${backlog.rps.toFixed(0)} changes/s, p50 ${backlog.p50.toFixed(1)} ms a page of 1000`,
    );
  } finally {
    await server.stop();
    await admin.end();
    await handle.close();
  }
  const headRatio = head[1]!.result.p50 / head[0]!.result.p50;
  await writeReport(o, {
    writes,
    bytesPerChange: bytesPerChange!,
    head,
    headRatio,
    backlog: backlog!,
  });
  return { writes, bytesPerChange, head, headRatio };
}

async function writeReport(
  o: ChangesBenchOptions,
  r: {
    writes: WriteRow[];
    bytesPerChange: number;
    head: HeadRow[];
    headRatio: number;
    backlog: LoadResult;
  },
) {
  const met = (ok: boolean) => (ok ? 'met' : '**missed**');
  const lines = [
    '# Change feed benchmark',
    '',
    `${writtenBy('npm run bench:changes', o.smoke)}; ${o.seconds} s per round.`,
    '',
    '| writes | with the feed | without | ratio | target ≥ 85 % |',
    '| --- | --- | --- | --- | --- |',
    ...r.writes.map(
      (w) =>
        `| ${w.scenario} | ${w.with.rps.toFixed(0)}/s (p50 ${w.with.p50.toFixed(1)} ms) | ${w.without.rps.toFixed(0)}/s (p50 ${w.without.p50.toFixed(1)} ms) | ${(w.ratio * 100).toFixed(0)} % | ${met(w.ratio >= 0.85)} |`,
    ),
    '',
    `Bytes per change (table, TOAST and indexes over rows, after the writes above): ${r.bytesPerChange.toFixed(0)}.`,
    '',
    '| getChanges at the head, nothing new | p50 | p99 | requests/s |',
    '| --- | --- | --- | --- |',
    ...r.head.map(
      (h) =>
        `| ${h.stored.toLocaleString('en')} changes stored | ${h.result.p50.toFixed(2)} ms | ${h.result.p99.toFixed(2)} ms | ${h.result.rps.toFixed(0)} |`,
    ),
    '',
    `p50 ratio ${r.headRatio.toFixed(2)}× (target ≤ 2×: ${met(r.headRatio <= 2)}).`,
    '',
    `Reading a backlog from the oldest change, 1000 a page: ${r.backlog.rps.toFixed(0)} changes/s, p50 ${r.backlog.p50.toFixed(1)} ms a page.`,
    '',
  ];
  await writeReportFiles(reportDir(o.smoke), {
    'changes.md': lines.join('\n'),
    'changes.json': JSON.stringify(r),
  });
}
