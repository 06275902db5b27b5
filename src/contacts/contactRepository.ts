import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../infra/db/client.js';
import { contactsAsJson } from './contactJson.js';
import type { ContactFilters } from './contactParams.js';
import type { StoredContact } from './contactPresenter.js';

type Db = Pick<Database, 'execute'>;

/**
 * ISO 8601 UTC with milliseconds, formatted by Postgres: raw queries through drizzle hand
 * timestamps over as driver-specific text, so the format is fixed here instead.
 */
function isoUtc(column: SQL): SQL {
  return sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * Every column of the contact shape, variables included (one correlated aggregate per
 * contact over the (contact_id, name) index), so a read is one round trip. `owner` is the
 * variables' owner: give the owner's id when it is known, since Citus routes the subquery to
 * one shard only when it names the tenant key's value (correlated through `c.owner_id`, the
 * default, it runs on every shard).
 */
export function contactColumns(owner: SQL = sql`c.owner_id`): SQL {
  return sql`
  c.id, c.bot_id, c.messenger, c.telegram_id::text AS telegram_id, c.max_user_id,
  c.vk_user_id, c.viber_id, c.telegram_username, c.max_username, c.phone, c.email, c.name,
  c.address, c.avatar, c.tags, ${isoUtc(sql`c.created_at`)} AS created_at,
  ${isoUtc(sql`c.unsubscribed_at`)} AS unsubscribed_at,
  (SELECT coalesce(json_agg(json_build_object(
      'id', v.id, 'name', v.name, 'value', v.value, 'type', v.type,
      'schema_id', v.schema_id, 'deletable', v.deletable, 'payload', v.payload
    ) ORDER BY v.id), '[]'::json)
   FROM contact_variables v WHERE v.owner_id = ${owner} AND v.contact_id = c.id) AS variables`;
}

/** Whose contacts a listing reads: all of an owner's, or one of its bots (already checked). */
export interface Scope {
  ownerId: number;
  botId?: number;
}

/** What contact_stats says about a scope: the paging version and the unfiltered total. */
export interface ScopeState {
  version: number;
  liveCount: number;
}

/**
 * The scope's state; null when `botId` is not one of the owner's bots (getContacts:
 * such a listing is empty, not an error).
 */
export async function readScopeState(
  db: Db,
  ownerId: number,
  botId: number | undefined,
): Promise<ScopeState | null> {
  if (botId === undefined) {
    const [row] = await queryRows<ScopeState>(
      db,
      sql`SELECT coalesce(sum(version), 0)::bigint AS "version",
                 coalesce(sum(live_count), 0)::bigint AS "liveCount"
          FROM contact_stats WHERE owner_id = ${ownerId}`,
    );
    return row ? toScopeState(row) : { version: 0, liveCount: 0 };
  }
  const [row] = await queryRows<ScopeState>(
    db,
    sql`SELECT coalesce(s.version, 0) AS "version", coalesce(s.live_count, 0) AS "liveCount"
        FROM bots b LEFT JOIN contact_stats s ON s.owner_id = b.owner_id AND s.bot_id = b.id
        WHERE b.owner_id = ${ownerId} AND b.id = ${botId}`,
  );
  return row ? toScopeState(row) : null;
}

/** int8 arrives as text through drizzle's pg driver and as a number through PGlite. */
function toScopeState(row: ScopeState): ScopeState {
  return { version: Number(row.version), liveCount: Number(row.liveCount) };
}

/** The listing's WHERE: scope, preview excluded (getContacts), inclusive date window. */
function listingWhere(scope: Scope, filters: ContactFilters): SQL {
  const parts: SQL[] = [
    sql`owner_id = ${scope.ownerId}`,
    ...(scope.botId === undefined ? [] : [sql`bot_id = ${scope.botId}`]),
    // spelled exactly as the partial indexes' predicate so the planner can use them
    sql`NOT "preview"`,
  ];
  if (filters.dateFrom !== undefined) {
    parts.push(sql`created_at >= ${unixToIso(filters.dateFrom)}::timestamptz`);
  }
  if (filters.dateTo !== undefined) {
    // date_to is inclusive of its whole second: 12:00:00.999 is "at or before 12:00:00".
    // The second is added in Postgres: the last second of 9999 plus one has no ISO text.
    parts.push(sql`created_at < ${unixToIso(filters.dateTo)}::timestamptz + interval '1 second'`);
  }
  return sql.join(parts, sql` AND `);
}

function unixToIso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

export async function countContacts(db: Db, scope: Scope, filters: ContactFilters) {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*) AS n FROM contacts WHERE ${listingWhere(scope, filters)}`,
  );
  return Number(row?.n ?? 0);
}

export interface PageWindow {
  /** keyset start: only contacts with a larger id (0 = from the beginning) */
  afterId: number;
  /** rows to skip after `afterId` */
  skip: number;
  limit: number;
}

/** A listed contact: its id (for paging) and its JSON text (contactJson.ts). */
export interface ListedContact {
  id: number;
  json: string;
}

/**
 * One page in ascending id. A deferred join: the OFFSET runs on an index-only scan of the
 * paging index and only the page's rows are fetched (docs/contacts.md).
 */
export async function pageOfContacts(
  db: Db,
  scope: Scope,
  filters: ContactFilters,
  { afterId, skip, limit }: PageWindow,
): Promise<ListedContact[]> {
  const rows = await queryRows<ListedContact>(
    db,
    contactsAsJson(
      scope.ownerId,
      sql`SELECT id FROM contacts
          WHERE ${listingWhere(scope, filters)} AND id > ${afterId}
          ORDER BY id OFFSET ${skip} LIMIT ${limit}`,
    ),
  );
  return rows.map((row) => ({ id: Number(row.id), json: row.json }));
}

export async function contactById(
  db: Db,
  ownerId: number,
  id: number,
): Promise<StoredContact | undefined> {
  const [row] = await queryRows<StoredContact>(
    db,
    sql`SELECT ${contactColumns(sql`${ownerId}`)} FROM contacts c WHERE c.owner_id = ${ownerId} AND c.id = ${id}`,
  );
  return row && normalise(row);
}

/** Numbers from int8 columns, whichever driver read them. */
function normalise(row: StoredContact): StoredContact {
  return {
    ...row,
    id: Number(row.id),
    bot_id: Number(row.bot_id),
    max_user_id: row.max_user_id === null ? null : Number(row.max_user_id),
    vk_user_id: row.vk_user_id === null ? null : Number(row.vk_user_id),
  };
}
