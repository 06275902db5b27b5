import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../infra/db/client.js';
import { onCitus } from '../infra/db/engine.js';
import { contactsAsJson } from '../contacts/contactJson.js';
import type { ChangeType } from './changeTypes.js';
import { FEED_TXID } from './feedStamp.js';
import { ownerConstant } from '../infra/db/ownerConstant.js';

/** A contact a transaction wrote, and whether it created it. */
export interface ChangedContact {
  id: number;
  created: boolean;
}

/**
 * Renders the contacts of one bot that the current transaction wrote — as the read methods
 * show them, by Postgres (contacts/contactJson.ts) — and records each as a change, in one
 * statement. Called last in the transaction, after every write to the contacts (variables
 * included), so the event shows the contact as committed. Answers `id → JSON text`.
 */
export async function recordContactChanges(
  db: Database,
  ownerId: number,
  botId: number,
  changed: readonly ChangedContact[],
): Promise<Map<number, string>> {
  if (changed.length === 0) return new Map();
  const ids = `{${changed.map((c) => c.id).join(',')}}`;
  const created = `{${changed.flatMap((c) => (c.created ? [c.id] : [])).join(',')}}`;
  const rendered = contactsAsJson(ownerId, sql`SELECT unnest(${ids}::bigint[]) AS id`);
  // over the bot's row, so Citus runs the select on the owner's worker (feedStamp.ts)
  const feed = (
    source: SQL,
  ) => sql`INSERT INTO changes (account_id, type, bot_id, contact_id, data, txid)
    SELECT b.owner_id,
      CASE WHEN r.id = ANY(${created}::bigint[])
        THEN ${'contact.created' satisfies ChangeType} ELSE ${'contact.updated' satisfies ChangeType} END,
      b.id, r.id, r.json::json, ${FEED_TXID}
    FROM bots b, ${source} WHERE b.owner_id = ${ownerConstant(ownerId)} AND b.id = ${botId} ORDER BY r.id`;
  let rows: { id: string | number; json: string }[];
  if (await onCitus(db)) {
    // Citus runs no INSERT in a CTE on one shard (infra/db/engine.ts): rendered first, then
    // the feed's rows from the texts rendered, each statement on the owner's shard
    rows = await queryRows(db, rendered);
    const texts = JSON.stringify(rows.map((r) => ({ id: Number(r.id), json: r.json })));
    await db.execute(feed(sql`jsonb_to_recordset(${texts}::jsonb) AS r(id bigint, json text)`));
  } else {
    rows = await queryRows(
      db,
      sql`WITH rendered AS (${rendered}), feed AS (${feed(sql`rendered r`)})
        SELECT id, json FROM rendered`,
    );
  }
  return new Map(rows.map((r) => [Number(r.id), r.json]));
}
