/**
 * The sweep and the service's kept counts (band and value counts, docs/records.md): a list
 * that is read has them, taken in the background after its first read of a counted shape.
 * The sweep takes them before its points, so that a first-time point measures reads of a
 * list in use rather than a count of the whole list running beside the point; and its
 * clean-up between points (sweepBench.ts `settle`) leaves that background work be. Cancelled
 * there, a count of a 1M list (about 4 s under load) started again at every point and never
 * ended, so every point that used the counts also paid for a count running beside it.
 */
import type pg from 'pg';
import { KEPT_MIN_RECORDS } from '../../src/lists/items/keptCounts.js';
import type { SweepData } from './sweepData.js';
import { SHAPES } from './sweepShapes.js';

/**
 * The statements of the service's background recounts (keptCountStatements.ts: a count of
 * the list, an advance over the writes since), as pg_stat_activity shows their text.
 */
export const KEPT_COUNT_WORK = String.raw`^\s*(insert into "list_(band|value)_counts"|with kept as)`;

/** a count of a 1M list's slot takes seconds; of several lists, a few minutes at most */
const MAX_WAIT_MS = 300_000;

/** Each single-condition shape of the sweep, at a share its counts answer. */
const COUNTED_READS = SHAPES.filter((s) => Object.keys(s.filters(0.5)).length === 1).map((s) => ({
  filters: s.filters(0.5),
  orderBy: s.orderBy,
}));

/**
 * Reads each single-condition shape once on each list large enough to keep counts, through
 * `serverUrl`, and waits until the counts those reads start are taken or brought forward:
 * before the sweep's points, and after each case that writes, whose writes the next case's
 * reads would otherwise bring the counts forward over (the tail of that work running in
 * the next case's time, and a first-time point paying for the point before it). What it
 * did, as a line to log; undefined where no list is large enough to keep counts.
 */
export async function takeKeptCounts(
  pool: pg.Pool,
  serverUrl: string,
  data: SweepData,
  sizes: readonly number[],
): Promise<string | undefined> {
  const started = Date.now();
  const lists = sizes.filter((size) => size >= KEPT_MIN_RECORDS).map((size) => data.lists[size]!);
  for (const listId of lists) {
    for (const read of COUNTED_READS) {
      const query = new URLSearchParams({ schema_id: listId, order_by: read.orderBy, limit: '1' });
      for (const [slug, value] of Object.entries(read.filters))
        query.set(`filters[${slug}]`, value);
      const res = await fetch(`${serverUrl}/api/v1/getListItems?${query}`, {
        headers: { authorization: `Bearer ${data.apiKey}` },
      });
      if (!res.ok) throw new Error(`a read to take the kept counts answered ${res.status}`);
    }
  }
  if (lists.length === 0) return undefined;
  await waitForKeptCountWork(pool, started + MAX_WAIT_MS);
  const kept = await pool.query<{ lists: number }>(
    `select count(distinct list_key)::int as lists from (
       select list_key from list_band_counts union all select list_key from list_value_counts) k
     where list_key = any(select hashtextextended(id, 0) from list_schemas where id = any($1))`,
    [lists],
  );
  return `kept counts of ${kept.rows[0]!.lists} of ${lists.length} lists taken in ${((Date.now() - started) / 1000).toFixed(0)} s`;
}

/**
 * Waits until no recount of the service's kept counts runs in the pool's database (or until
 * `deadline`, a Date.now() time): idle twice in a row, since a recount's advance and the
 * count after it are two statements.
 */
export async function waitForKeptCountWork(
  pool: pg.Pool,
  deadline = Number.POSITIVE_INFINITY,
): Promise<void> {
  for (let idle = 0; idle < 2 && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
       where datname = current_database() and state = 'active' and query ~* $1`,
      [KEPT_COUNT_WORK],
    );
    idle = rows[0]!.n === 0 ? idle + 1 : 0;
  }
}
