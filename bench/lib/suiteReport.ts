/**
 * Writes the run's results: results.json (everything), results.md (the tables and the
 * targets, met or missed) and chart.svg (suiteChart.ts).
 */
import type { Capture } from './capture.js';
import { chartSvg } from './suiteChart.js';
import type { DatasetShape } from './dataset.js';
import type { ExportResult } from './exportScenario.js';
import type { LoadResult } from './load.js';
import type { PairedResult } from './pairedRounds.js';
import { writeReportFiles } from './reportFiles.js';
import { median } from './stats.js';

export interface Row {
  id: string;
  letter: string;
  label: string;
  size?: number;
  api: LoadResult;
  raw: LoadResult;
  /** bench/floorServer.ts on the same requests (read scenarios only) */
  floor?: LoadResult;
  rssMb: number;
}

/** a: side A is the route without the step, B with it (B/A: what the step keeps) */
export interface AuthOverhead {
  service: PairedResult;
  /** the floor server without and with its one Redis script */
  floor: PairedResult;
}

export interface Report {
  smoke: boolean;
  seconds: number;
  /** alternating rounds the seconds were split into */
  rounds: number;
  connections: number;
  pool: number;
  shape: DatasetShape;
  rows: Row[];
  captured: Record<string, Pick<Capture, 'auth' | 'handler'> & { queries: number }>;
  coldStarts: number[];
  exported: ExportResult | undefined;
  authRatio: AuthOverhead | undefined;
  scaleOut: { single: number; double: number } | undefined;
  machine: Record<string, string>;
  tookSeconds: number;
}

const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

export async function writeReport(dir: string, report: Report): Promise<void> {
  await writeReportFiles(dir, {
    'results.json': JSON.stringify(report),
    'results.md': markdown(report),
    'chart.svg': chartSvg(report.rows),
  });
}

function markdown(r: Report): string {
  const byId = new Map(r.rows.map((row) => [row.id, row]));
  const out: string[] = [];
  out.push(
    `Run of ${new Date().toISOString()}${r.smoke ? ' (smoke: tiny data, targets not meaningful)' : ''}: ${r.connections} connections, ${r.seconds} s per side and scenario in ${r.rounds} alternating round(s), each side's median round shown, pool of ${r.pool} on both sides; took ${f(r.tookSeconds, 0)} s.`,
    '',
    `Machine: ${Object.entries(r.machine)
      .map(([k, v]) => `${k} ${v}`)
      .join('; ')}.`,
    '',
    '| scenario | API req/s | API p50 ms | API p99 ms | raw req/s | raw p50 ms | raw p99 ms | API/raw | floor req/s | floor/raw | API/floor | server peak RSS MB |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const row of r.rows) {
    const floor = row.floor;
    out.push(
      `| ${row.id}: ${row.label} | ${f(row.api.rps, 0)} | ${f(row.api.p50)} | ${f(row.api.p99)} | ${f(row.raw.rps, 0)} | ${f(row.raw.p50)} | ${f(row.raw.p99)} | ${f(row.api.rps / row.raw.rps)} | ${floor ? f(floor.rps, 0) : '–'} | ${floor ? f(floor.rps / row.raw.rps) : '–'} | ${floor ? f(row.api.rps / floor.rps) : '–'} | ${f(row.rssMb, 0)} |`,
    );
  }
  out.push('', '### Round trips per request (instrumented run)', '');
  out.push(
    '| scenario | auth + limit: Redis | auth + limit: Postgres | handler: Redis | handler: Postgres (queries) |',
  );
  out.push('|---|---|---|---|---|');
  for (const [id, c] of Object.entries(r.captured)) {
    out.push(
      `| ${id} | ${c.auth.redis.roundTrips} (${c.auth.redis.commands} commands) | ${c.auth.pg.roundTrips} | ${c.handler.redis.roundTrips} (${c.handler.redis.commands}) | ${c.handler.pg.roundTrips} (${c.handler.pg.commands}) |`,
    );
  }
  if (r.exported) {
    const e = r.exported;
    out.push('', '### g: getContacts offset mode, limit 1000', '');
    out.push('| measurement | value |', '|---|---|');
    out.push(`| listed contacts / pages | ${e.total} / ${e.pages} |`);
    out.push(`| sequential first page (median of first 10) | ${f(e.firstPageMs, 1)} ms |`);
    out.push(`| sequential last page (median of last 10) | ${f(e.lastPageMs, 1)} ms |`);
    out.push(`| cold jump, first page | ${f(e.coldFirstMs, 1)} ms |`);
    out.push(`| cold jump, last page | ${f(e.coldLastMs, 1)} ms |`);
    out.push(`| full export over HTTP | ${f(e.exportMs / 1000, 1)} s |`);
    out.push(`| raw keyset export (plain pg, same columns) | ${f(e.rawKeysetMs / 1000, 1)} s |`);
  }
  out.push('', '### Targets', '', '| target | measured | verdict |', '|---|---|---|');
  const target = (name: string, measured: string, ok: boolean) =>
    out.push(`| ${name} | ${measured} | ${verdict(ok)} |`);
  // A throughput target, with the floor's own share of raw when there is one: the bound.
  const share = (name: string, rows: Row[], least: number) => {
    if (rows.length === 0) return;
    const worst = rows.reduce((a, b) => (b.api.rps / b.raw.rps < a.api.rps / a.raw.rps ? b : a));
    const ratio = worst.api.rps / worst.raw.rps;
    const floor = worst.floor && worst.floor.rps / worst.raw.rps;
    const bound = floor === undefined ? '' : ` (floor ${f(floor * 100, 0)} %)`;
    out.push(
      `| ${name} | ${f(ratio * 100, 0)} %${rows.length > 1 ? ` at ${worst.id}` : ''}${bound} | ${ratio >= least ? 'met' : floor !== undefined && floor < least ? '**missed**: above what the floor reaches' : '**missed**'} |`,
    );
  };
  for (const id of ['a', 'b', 'h']) {
    const row = byId.get(id);
    share(`${id}: API ≥ 60 % of raw`, row ? [row] : [], 0.6);
  }
  const [batch, single, keyed, contactsBatch] = ['j', 'b', 'l', 'k'].map((id) => byId.get(id));
  if (batch && single) {
    const perSecond = batch.api.rps * 1000;
    target('j: addListItems ≥ 25,000 records/s', f(perSecond, 0), perSecond >= 25_000);
    const times = perSecond / single.api.rps;
    target('j: ≥ 10× the single-record rate', `${f(times, 1)}×`, times >= 10);
  }
  if (contactsBatch) {
    const perSecond = contactsBatch.api.rps * 500;
    target('k: createOrUpdateContacts ≥ 10,000 contacts/s', f(perSecond, 0), perSecond >= 10_000);
  }
  if (keyed && single) {
    const cost = 1 - keyed.api.rps / single.api.rps;
    target('l: an Idempotency-Key costs addListItem ≤ 15 %', `${f(cost * 100, 0)} %`, cost <= 0.15);
  }
  if (r.authRatio) {
    const ratio = r.authRatio.service.ratio;
    // the floor with and without its one Redis script: what the round trip alone keeps
    const floor = r.authRatio.floor.ratio;
    out.push(
      `| auth + limiter keeps ≥ 75 % of the route without it (a) | ${f(ratio * 100, 0)} % (floor with/without its script ${f(floor * 100, 0)} %) | ${ratio >= 0.75 ? 'met' : floor < 0.75 ? '**missed**: above what the floor reaches' : '**missed**'} |`,
    );
  }
  const [s0, s1, s2] = r.shape.sizes;
  for (const letter of ['c', 'd', 'e']) {
    const at = (size: number | undefined) => byId.get(`${letter}@${size}`);
    const small = at(s0);
    const large = at(s2);
    if (small && large) {
      const ratio = large.api.p50 / small.api.p50;
      target(`${letter}: p50 at ${s2} ≤ 6× at ${s0}`, `${f(ratio)}×`, ratio <= 6);
    }
    const mid = at(s1);
    if (letter !== 'e' && small && mid && large) {
      const steps = [mid.api.p50 / small.api.p50, large.api.p50 / mid.api.p50];
      target(
        `${letter}: each step ≤ 10×`,
        steps.map((x) => `${f(x)}×`).join(', '),
        steps.every((x) => x <= 10),
      );
    }
    share(
      `${letter}: getListItems throughput ≥ 85 % of raw (worst size)`,
      r.rows.filter((row) => row.letter === letter),
      0.85,
    );
  }
  const fRow = (name: string, size = s2) => byId.get(`f@${size}:${name}`);
  const p1 = fRow('page 1');
  const p500 = fRow('page 500');
  const last = fRow('last page');
  const p1small = fRow('page 1', s0);
  if (p1 && p500)
    target(
      'f: page 500 ≤ 5× page 1',
      `${f(p500.api.p50 / p1.api.p50)}×`,
      p500.api.p50 / p1.api.p50 <= 5,
    );
  if (p1 && last)
    target(
      'f: last page ≤ 100× page 1',
      `${f(last.api.p50 / p1.api.p50)}×`,
      last.api.p50 / p1.api.p50 <= 100,
    );
  if (p1 && p1small) {
    const ratio = p1.api.p50 / p1small.api.p50;
    target(`f: unfiltered page with meta.total at ${s2} ≤ 2× at ${s0}`, `${f(ratio)}×`, ratio <= 2);
  }
  if (r.exported) {
    const e = r.exported;
    target(
      'g: sequential last page ≤ 1.5× first',
      `${f(e.lastPageMs / e.firstPageMs)}×`,
      e.lastPageMs / e.firstPageMs <= 1.5,
    );
    target(
      'g: cold jump to the last page ≤ 12× first page',
      `${f(e.coldLastMs / e.firstPageMs)}×`,
      e.coldLastMs / e.firstPageMs <= 12,
    );
    target(
      'g: full export ≤ 2× raw keyset export',
      `${f(e.exportMs / e.rawKeysetMs)}×`,
      e.exportMs / e.rawKeysetMs <= 2,
    );
  }
  const counts = Object.values(r.captured);
  if (counts.length > 0) {
    const redis = Math.max(...counts.map((c) => c.auth.redis.roundTrips));
    const pg = Math.max(...counts.map((c) => c.auth.pg.roundTrips));
    target('auth + rate limit: ≤ 1 Redis round trip per request', `${redis}`, redis <= 1);
    target('auth + rate limit: ≤ 1 Postgres round trip per request', `${pg}`, pg <= 1);
  }
  if (r.rows.length > 0) {
    const rss = Math.max(...r.rows.map((row) => row.rssMb));
    target('server peak RSS ≤ 250 MB in every scenario', `${f(rss, 0)} MB`, rss <= 250);
  }
  if (r.coldStarts.length > 0) {
    const cold = median(r.coldStarts);
    const spread = `${f(Math.min(...r.coldStarts) / 1000)}–${f(Math.max(...r.coldStarts) / 1000)} s`;
    target(
      'cold start to /readyz 200 ≤ 1.5 s (median)',
      `${f(cold / 1000)} s (${r.coldStarts.length} starts: ${spread})`,
      cold <= 1500,
    );
  }
  if (r.scaleOut) {
    out.push(
      '',
      `Two instances / one on scenario a: ${f(r.scaleOut.double / r.scaleOut.single)}× (${f(r.scaleOut.double, 0)} vs ${f(r.scaleOut.single, 0)} req/s).`,
    );
  }
  return out.join('\n') + '\n';
}
