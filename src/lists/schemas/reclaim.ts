import { sql } from 'drizzle-orm';
import type { Database } from '../../infra/db/client.js';
import { queryRows } from '../../infra/db/client.js';
import { listScope } from '../items/listScope.js';
import { listBandCounts } from '../../infra/db/schema/listBandCounts.js';
import { listValueCounts } from '../../infra/db/schema/listValueCounts.js';

/** Records removed per DELETE: short statements, so reclaiming never holds long locks. */
export const RECLAIM_BATCH_SIZE = 5000;

/**
 * How long a deleted list's row is kept after its records are gone. A record insert that
 * read the list just before it was deleted commits within a statement timeout (15 s);
 * keeping the row an hour means such a record is still found and removed, never orphaned.
 */
export const RECLAIM_GRACE_SECONDS = 3600;

export interface ReclaimOptions {
  batchSize?: number;
  graceSeconds?: number;
  /** checked between batches; the next run carries on (there is no state to save) */
  signal?: AbortSignal;
}

export interface ReclaimReport {
  /** records deleted */
  items: number;
  /** DELETE statements run */
  batches: number;
  /** deleted lists whose row was removed for good */
  lists: number;
}

/**
 * Deletes the records of deleted lists (deleteListSchema) in batches, then the list rows once
 * empty and past the grace period. Idempotent and stateless: it only looks for deleted
 * lists, so after a restart it simply continues where records remain.
 */
export async function reclaimDeletedLists(
  db: Database,
  {
    batchSize = RECLAIM_BATCH_SIZE,
    graceSeconds = RECLAIM_GRACE_SECONDS,
    signal,
  }: ReclaimOptions = {},
): Promise<ReclaimReport> {
  const report: ReclaimReport = { items: 0, batches: 0, lists: 0 };
  let after: { deleted_at: string; id: string } | undefined;
  for (;;) {
    const lists = await queryRows<{
      owner_id: number;
      id: string;
      deleted_at: string;
      expired: boolean;
    }>(
      db,
      sql`select owner_id, id, deleted_at::text as deleted_at,
                 deleted_at < now() - make_interval(secs => ${graceSeconds}) as expired
          from list_schemas
          where deleted_at is not null
            ${after ? sql`and (deleted_at, id) > (${after.deleted_at}::timestamptz, ${after.id})` : sql``}
          order by deleted_at, id
          limit 100`,
    );
    if (lists.length === 0) return report;
    for (const list of lists) {
      if (signal?.aborted) return report;
      if (!(await deleteItems(db, Number(list.owner_id), list.id, batchSize, report, signal)))
        return report;
      if (list.expired) report.lists += await removeEmptyList(db, Number(list.owner_id), list.id);
    }
    const last = lists[lists.length - 1]!;
    after = { deleted_at: last.deleted_at, id: last.id };
  }
}

/** False when stopped before the list was empty. */
async function deleteItems(
  db: Database,
  ownerId: number,
  schemaId: string,
  batchSize: number,
  report: ReclaimReport,
  signal?: AbortSignal,
): Promise<boolean> {
  for (;;) {
    if (signal?.aborted) return false;
    // SKIP LOCKED: two instances reclaiming at once split the work instead of queueing.
    // = any(array(...)): primary-key lookups; `in (...)` let the planner scan the table.
    const [result] = await queryRows<{ n: number }>(
      db,
      sql`with gone as (
            delete from list_items where owner_id = ${ownerId} and id = any(array(
              select id from list_items where ${listScope(ownerId, schemaId)}
              limit ${batchSize} for update skip locked))
            returning 1)
          select count(*)::int as n from gone`,
    );
    const deleted = result?.n ?? 0;
    if (deleted === 0) return true;
    report.items += deleted;
    report.batches++;
    if (deleted < batchSize) return true;
  }
}

async function removeEmptyList(db: Database, ownerId: number, schemaId: string): Promise<number> {
  const removed = await queryRows(
    db,
    sql`delete from list_schemas
        where owner_id = ${ownerId} and id = ${schemaId} and deleted_at is not null
          and not exists (
            select 1 from list_items where ${listScope(ownerId, schemaId)})
        returning id`,
  );
  // its band and value counts (bandCounts.ts, valueCounts.ts): no read finds the list any more
  if (removed.length > 0)
    for (const table of [listBandCounts, listValueCounts])
      await queryRows(db, sql`delete from ${table} where ${listScope(ownerId, schemaId)}`);
  return removed.length;
}
