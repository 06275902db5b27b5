import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../infra/db/client.js';
import { domainErrors } from '../shared/domainErrors.js';
import type { FeedCursor } from './cursor.js';

/** Whose changes, and which of them (getChanges' filters). */
export interface ChangeFilter {
  accountId: number;
  schemaId?: string;
  botId?: number;
  types?: readonly string[];
}

/** One stored change, as read for presenting. */
export interface ChangeRow {
  seq: number;
  type: string;
  occurredAt: Date;
  schemaId: string | null;
  botId: number | null;
  itemId: string | null;
  contactId: number | null;
  layout: number | null;
  /** the `data` column's text, exactly as written */
  data: string | null;
}

export interface ChangesPage {
  rows: ChangeRow[];
  next: FeedCursor;
  /** more changes had already committed when this page was read */
  hasMore: boolean;
}

interface RawRow {
  snapshot: string;
  expired: boolean | null;
  seq: string | number | null;
  type: string;
  occurred_at: string | Date;
  schema_id: string | null;
  bot_id: string | number | null;
  item_id: string | null;
  contact_id: string | number | null;
  layout: number | null;
  data: string | null;
}

/**
 * Up to `limit` changes after `cursor`, and the cursor after them. Changes are served batch by
 * batch (cursor.ts): a batch holds only transactions that had finished when its snapshot was
 * taken, so a transaction that took its `seq` early and commits late lands in a later batch
 * instead of being skipped, and nothing still running is ever shown. A page ends where a
 * batch ends unless the request started inside a batch; then the next batch fills the rest.
 */
export async function readChanges(
  db: Pick<Database, 'execute'>,
  filter: ChangeFilter,
  cursor: FeedCursor,
  limit: number,
  /** the cursor came from the client: check it against what retention purged */
  checkExpiry: boolean,
): Promise<ChangesPage> {
  const rows: ChangeRow[] = [];
  let at = cursor;
  let check = checkExpiry;
  for (;;) {
    const continuing = at.b !== undefined;
    const room = limit - rows.length;
    const raw = await queryRows<RawRow>(db, batchPage(filter, at, room + 1, check));
    const first = raw[0];
    if (!first) throw new Error('the change feed page query answered no row');
    if (first.expired) throw domainErrors.cursorExpired();
    check = false;
    const found = raw.filter((r) => r.seq !== null).map(toChangeRow);
    if (found.length > room) {
      rows.push(...found.slice(0, room));
      return { rows, next: { a: at.a, b: first.snapshot, last: rows.at(-1)!.seq }, hasMore: true };
    }
    rows.push(...found);
    at = { a: first.snapshot, last: 0 };
    // a batch started by this request ends at this request's snapshot: the head
    if (!continuing || rows.length === limit) return { rows, next: at, hasMore: false };
  }
}

/**
 * One statement: the batch's snapshot (the cursor's, or this statement's own to start a new
 * batch), whether the cursor expired, and the next changes of the batch in `seq` order. The
 * snapshot row is there even when no change is (LEFT JOIN LATERAL).
 */
function batchPage(filter: ChangeFilter, at: FeedCursor, n: number, checkExpiry: boolean): SQL {
  const a = at.a === undefined ? undefined : sql`${at.a}::pg_snapshot`;
  const afterA = a
    ? sql`and c.txid >= pg_snapshot_xmin(${a}) and not pg_visible_in_snapshot(c.txid, ${a})`
    : sql``;
  // anything purged that this reader had not read yet: its cursor is expired
  const expired = !checkExpiry
    ? sql`false`
    : a
      ? sql`(select purged_txid >= pg_snapshot_xmin(${a}) from change_feed_state)`
      : sql`(select purged_seq > ${at.last} from change_feed_state)`;
  return sql`
    with s as (select coalesce(${at.b ?? null}::pg_snapshot, pg_current_snapshot()) as b)
    select s.b::text as snapshot, ${expired} as expired, p.*
    from s left join lateral (
      select c.seq, c.type, c.occurred_at, c.schema_id, c.bot_id, c.item_id, c.contact_id,
        c.layout, c.data::text as data
      from changes c
      where c.account_id = ${filter.accountId} and c.seq > ${at.last}
        ${afterA}
        and pg_visible_in_snapshot(c.txid, s.b)
        ${filter.schemaId !== undefined ? sql`and c.schema_id = ${filter.schemaId}` : sql``}
        ${filter.botId !== undefined ? sql`and c.bot_id = ${filter.botId}` : sql``}
        ${filter.types ? sql`and c.type = any(${`{${filter.types.join(',')}}`}::text[])` : sql``}
      order by c.seq
      limit ${n}) p on true`;
}

/**
 * The head of `accountId`'s feed: a snapshot to start a cursor at (`{ a: <it> }`). Taken by a
 * statement on the account's `changes` (it reads no row), not by a bare `select
 * pg_current_snapshot()`: on Citus that statement runs on the worker holding the account's
 * shard, whose transaction ids the account's changes carry (src/changes/feedStamp.ts);
 * a bare one would take the coordinator's.
 */
export async function feedHead(db: Pick<Database, 'execute'>, accountId: number): Promise<string> {
  const [row] = await queryRows<{ snapshot: string }>(
    db,
    sql`select pg_current_snapshot()::text as snapshot, count(*) as none
        from changes where account_id = ${accountId} and seq < 0`,
  );
  if (!row) throw new Error('the feed head query answered no row');
  return row.snapshot;
}

const toNumber = (v: string | number | null) => (v === null ? null : Number(v));

function toChangeRow(r: RawRow): ChangeRow {
  return {
    seq: Number(r.seq),
    type: r.type,
    occurredAt: new Date(r.occurred_at),
    schemaId: r.schema_id,
    botId: toNumber(r.bot_id),
    itemId: r.item_id,
    contactId: toNumber(r.contact_id),
    layout: r.layout === null ? null : Number(r.layout),
    data: r.data,
  };
}
