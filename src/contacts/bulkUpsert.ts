import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../infra/db/client.js';
import { pgTextArray } from '../infra/db/textArray.js';
import { JsonText } from '../shared/orderedJson.js';
import { recordContactChanges } from '../changes/recordContacts.js';
import { lockContactKeys } from './contactLocks.js';
import { MESSENGER_IDS } from './messengers.js';
import { CREATED_FROM_API, type ContactUpsert } from './upsertRepository.js';

/** One contact of a bulk upsert: its rendered answer and whether it was created. */
export interface BulkUpserted {
  contact: JsonText;
  created: boolean;
}

/** The key a contact is matched by within its bot: messenger and messenger ID. */
export const contactKey = (u: Pick<ContactUpsert, 'messenger' | 'messengerId'>) =>
  `${u.messenger}:${String(u.messengerId)}`;

/**
 * createOrUpdateContacts' write: the contacts of one bot (messenger IDs distinct within the
 * batch) created or updated with the rules of createOrUpdateContact, in one transaction and
 * a handful of statements whatever the batch's size — set-based `INSERT … ON CONFLICT` (one
 * for the contacts that send tags, which replace the old ones, one for those that do not),
 * one rise of the bot's subscriber count, one read of the answers rendered as JSON by
 * Postgres that also records them in the change feed. The bot's owner was checked by the caller. Answers come back in input order.
 */
export async function upsertContactsInBulk(
  db: Database,
  ownerId: number,
  botId: number,
  inputs: readonly ContactUpsert[],
  /** the inputs' lock keys (upsertLockKey), built once by the caller for its queue too */
  keys: readonly string[],
): Promise<BulkUpserted[]> {
  return db.transaction(async (tx) => {
    await tx.execute(lockContactKeys(keys));
    const byKey = new Map<string, { id: number; created: boolean }>();
    for (const withTags of [true, false]) {
      const group = inputs.filter((u) => (u.tags !== undefined) === withTags);
      if (group.length === 0) continue;
      const rows = await queryRows<{
        id: string | number;
        created: boolean;
        messenger: string;
        messenger_key: string;
      }>(tx, upsertGroup(ownerId, botId, group, withTags));
      for (const r of rows)
        byKey.set(`${r.messenger}:${r.messenger_key}`, { id: Number(r.id), created: r.created });
    }
    const created = [...byKey.values()].filter((r) => r.created).length;
    if (created > 0) {
      await tx.execute(
        sql`UPDATE bots SET subscriber_count = subscriber_count + ${created}
            WHERE owner_id = ${ownerId} AND id = ${botId}`,
      );
    }
    const json = await recordContactChanges(tx, ownerId, botId, [...byKey.values()]);
    return inputs.map((u) => {
      const row = byKey.get(contactKey(u));
      const text = row && json.get(row.id);
      if (!row || text === undefined) throw new Error(`contact ${contactKey(u)} was not written`);
      return { contact: new JsonText(text), created: row.created };
    });
  });
}

/** The batch's rows as one JSON parameter: every messenger's ID and username column. */
function upsertGroup(
  ownerId: number,
  botId: number,
  group: readonly ContactUpsert[],
  withTags: boolean,
) {
  const records = group.map((u) => {
    const id = MESSENGER_IDS[u.messenger];
    return {
      messenger: u.messenger,
      name: u.name,
      phone: u.phone ?? null,
      email: u.email ?? null,
      address: u.address ?? null,
      tags: pgTextArray(u.tags ?? []),
      [id.column]: u.messengerId,
      ...(id.username ? { [id.username]: u.username ?? null } : {}),
    };
  });
  return sql`
    INSERT INTO contacts AS c
      (bot_id, owner_id, messenger, name, phone, email, address, tags, first_message,
       telegram_id, telegram_username, max_user_id, max_username, vk_user_id, viber_id)
    SELECT ${botId}::bigint, ${ownerId}::bigint, i.messenger, i.name, i.phone, i.email, i.address,
      i.tags::text[], ${CREATED_FROM_API}, i.telegram_id, i.telegram_username, i.max_user_id,
      i.max_username, i.vk_user_id, i.viber_id
    FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS i(messenger text, name text,
      phone text, email text, address text, tags text, telegram_id bigint, telegram_username text,
      max_user_id bigint, max_username text, vk_user_id bigint, viber_id text)
    ON CONFLICT (owner_id, bot_id, messenger, messenger_key) DO UPDATE SET
      name = excluded.name,
      -- these change only when sent non-empty (they cannot be cleared)
      phone = coalesce(excluded.phone, c.phone),
      email = coalesce(excluded.email, c.email),
      address = coalesce(excluded.address, c.address),
      telegram_username = coalesce(excluded.telegram_username, c.telegram_username),
      max_username = coalesce(excluded.max_username, c.max_username),
      ${withTags ? sql`tags = excluded.tags,` : sql``}
      -- the inserted row's default, now(): Citus takes no now() in DO UPDATE SET
      updated_at = excluded.updated_at
    RETURNING c.id, (c.xmax = 0) AS created, c.messenger, c.messenger_key`;
}
