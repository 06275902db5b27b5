import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../infra/db/client.js';
import { contactsAsJson } from '../contacts/contactJson.js';
import type { ChangeType } from './changeTypes.js';

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
  db: Pick<Database, 'execute'>,
  ownerId: number,
  botId: number,
  changed: readonly ChangedContact[],
): Promise<Map<number, string>> {
  if (changed.length === 0) return new Map();
  const ids = `{${changed.map((c) => c.id).join(',')}}`;
  const created = `{${changed.flatMap((c) => (c.created ? [c.id] : [])).join(',')}}`;
  const rows = await queryRows<{ id: string | number; json: string }>(
    db,
    sql`WITH rendered AS (${contactsAsJson(ownerId, sql`SELECT unnest(${ids}::bigint[]) AS id`)}),
      feed AS (
        INSERT INTO changes (account_id, type, bot_id, contact_id, data)
        SELECT ${ownerId}::bigint,
          CASE WHEN r.id = ANY(${created}::bigint[])
            THEN ${'contact.created' satisfies ChangeType} ELSE ${'contact.updated' satisfies ChangeType} END,
          ${botId}::bigint, r.id, r.json::json
        FROM rendered r ORDER BY r.id)
      SELECT id, json FROM rendered`,
  );
  return new Map(rows.map((r) => [Number(r.id), r.json]));
}
