import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../infra/db/client.js';
import { queryRows } from '../../infra/db/client.js';
import { listFieldErasures } from '../../infra/db/schema/index.js';
import { isSlotColumn } from '../slots.js';
import { listScope } from '../items/listScope.js';
import { FORGET_STORED_JSON } from '../items/storedJson.js';

/** Records changed per UPDATE: short transactions, so a 1M-record list never holds long locks. */
export const ERASE_BATCH_SIZE = 5000;

export interface Erasure {
  ownerId: number;
  schemaId: string;
  slug: string;
  slot: string | null;
}

export interface EraseOptions {
  batchSize?: number;
  /** checked between batches; the erase resumes later from its saved cursor */
  signal?: AbortSignal;
}

interface Batch {
  scanned: number;
  cursor_created_at: string | null;
  cursor_id: string | null;
}

/**
 * Erases a deleted field's values from every record of its list (deleteListSchemaField): the key
 * leaves `data` and the slot column is cleared. Walks the list in (created_at, id) order
 * in batches, saving the position after each, and drops the erasure row when done.
 * Idempotent: running it twice, or resuming it, changes nothing more.
 * True when finished, false when stopped early.
 */
export async function eraseFieldValues(
  db: Database,
  erasure: Erasure,
  { batchSize = ERASE_BATCH_SIZE, signal }: EraseOptions = {},
): Promise<boolean> {
  const slot = isSlotColumn(erasure.slot) ? erasure.slot : null;
  const key = and(
    eq(listFieldErasures.ownerId, erasure.ownerId),
    eq(listFieldErasures.schemaId, erasure.schemaId),
    eq(listFieldErasures.slug, erasure.slug),
  );
  const [saved] = await queryRows<{ created_at: string | null; id: string | null }>(
    db,
    sql`select cursor_created_at::text as created_at, cursor_id as id
        from list_field_erasures where ${key}`,
  );
  if (!saved) return true; // another eraser finished it
  let cursor = saved.created_at !== null && saved.id !== null ? saved : null;

  for (;;) {
    if (signal?.aborted) return false;
    const [batch] = await queryRows<Batch>(db, eraseBatch(erasure, slot, cursor, batchSize));
    if (!batch || batch.scanned < batchSize || batch.cursor_id === null) break;
    cursor = { created_at: batch.cursor_created_at, id: batch.cursor_id };
    const saving = await db
      .update(listFieldErasures)
      .set({
        cursorCreatedAt: sql`${cursor.created_at}::timestamptz`,
        cursorId: cursor.id,
        touchedAt: sql`now()`,
      })
      .where(
        and(
          key,
          sql`exists (select 1 from list_schemas s
        where s.owner_id = ${erasure.ownerId} and s.id = ${erasure.schemaId}
          and s.deleted_at is null)`,
        ),
      )
      .returning({ slug: listFieldErasures.slug });
    // The list was deleted meanwhile: reclaim.ts removes its records wholesale.
    if (saving.length === 0) return true;
  }
  await db.delete(listFieldErasures).where(key);
  return true;
}

/** One batch: the next `size` records after the cursor, changed only where they hold a value. */
function eraseBatch(
  erasure: Erasure,
  slot: string | null,
  cursor: { created_at: string | null; id: string | null } | null,
  size: number,
): SQL {
  const after = cursor
    ? sql`and (created_at, id) > (${cursor.created_at}::timestamptz, ${cursor.id})`
    : sql``;
  const column = slot ? sql.identifier(slot) : null;
  const clearSlot = column ? sql`, ${column} = null` : sql``;
  const holdsValue = column
    ? sql`(li.data ? ${erasure.slug}::text or li.${column} is not null)`
    : sql`li.data ? ${erasure.slug}::text`;
  return sql`
    with batch as (
      select id, created_at from list_items
      where ${listScope(erasure.ownerId, erasure.schemaId)} ${after}
      order by created_at, id
      limit ${size}
    ), changed as (
      update list_items li set data = li.data - ${erasure.slug}::text ${clearSlot}${FORGET_STORED_JSON}
      -- = any(array(...)) keeps the join a primary-key lookup; a plain join made the
      -- planner hash the whole table once per batch.
      where li.owner_id = ${erasure.ownerId} and li.id = any(array(select id from batch))
        and ${holdsValue}
      returning 1
    )
    select (select count(*) from batch)::int as scanned,
           (select count(*) from changed)::int as changed,
           last.created_at::text as cursor_created_at, last.id as cursor_id
    from (select 1) one
    left join lateral (
      select created_at, id from batch order by created_at desc, id desc limit 1
    ) last on true`;
}

export interface ResumeOptions extends EraseOptions {
  /** an erasure whose eraser has not reported for this long is presumed dead */
  staleAfterSeconds?: number;
}

/**
 * Finishes erasures whose eraser stopped (a crash or a shutdown mid-request). Each is
 * claimed by moving its heartbeat, so two instances do not resume the same one.
 * Erasures of deleted lists are skipped: reclaim.ts removes those records wholesale.
 */
export async function resumeStaleErasures(
  db: Database,
  { staleAfterSeconds = 120, ...options }: ResumeOptions = {},
): Promise<number> {
  const stale = await queryRows<Erasure & { touched: string }>(
    db,
    sql`select e.owner_id as "ownerId", e.schema_id as "schemaId", e.slug, e.slot,
          e.touched_at::text as touched
        from list_field_erasures e
        join list_schemas s on s.owner_id = e.owner_id and s.id = e.schema_id
          and s.deleted_at is null
        where e.touched_at < now() - make_interval(secs => ${staleAfterSeconds})
        order by e.created_at
        limit 100`,
  );
  let finished = 0;
  for (const erasure of stale) {
    const claimed = await queryRows(
      db,
      sql`update list_field_erasures set touched_at = now()
          where owner_id = ${erasure.ownerId} and schema_id = ${erasure.schemaId}
            and slug = ${erasure.slug}
            and touched_at = ${erasure.touched}::timestamptz
          returning 1`,
    );
    if (claimed.length === 0) continue;
    if (!(await eraseFieldValues(db, erasure, options))) break;
    finished++;
  }
  return finished;
}

/**
 * How long deleteListSchemaField erases before answering. Small lists are done by then
 * (so the slug can be added back right after the 204); a big one is not — 1M records
 * take about a minute — and its erase carries on in the background.
 */
export const ERASE_IN_REQUEST_MS = 3000;

/**
 * Erases until `signal` fires, then hands the rest to a detached erase in this process.
 * If the process stops first, resumeStaleErasures picks it up from the saved position.
 */
export async function eraseNowOrLater(
  db: Database,
  erasure: Erasure,
  signal: AbortSignal,
  log: { error(obj: object, msg: string): void },
): Promise<{ finished: boolean; rest?: Promise<void> }> {
  if (await eraseFieldValues(db, erasure, { signal })) return { finished: true };
  const rest = eraseFieldValues(db, erasure).then(
    () => undefined,
    (err: unknown) => log.error({ err, erasure }, 'erasing a deleted field failed; will resume'),
  );
  return { finished: false, rest };
}
