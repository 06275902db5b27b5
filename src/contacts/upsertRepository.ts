import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../infra/db/client.js';
import { pgTextArray } from '../infra/db/textArray.js';
import { lockContactKeys, upsertLockKey } from './contactLocks.js';
import { MESSENGER_IDS, type ApiMessenger } from './messengers.js';
import type { StoredContact } from './contactPresenter.js';
import { contactById } from './contactRepository.js';
import { recordContactChanges } from '../changes/recordContacts.js';
import { domainErrors } from '../shared/domainErrors.js';

/** createOrUpdateContact's validated input; undefined = not passed. */
export interface ContactUpsert {
  botId: number;
  messenger: ApiMessenger;
  /** the chosen messenger's ID */
  messengerId: number | string;
  name: string;
  username?: string;
  phone?: string;
  email?: string;
  address?: string;
  tags?: string[];
}

/** createOrUpdateContact: the first message of a contact created through the API. */
export const CREATED_FROM_API = 'Created from API';

/**
 * Creates or updates the contact, and records the change, in one transaction. `INSERT … ON CONFLICT` on the
 * (bot, messenger, messenger ID) unique index makes concurrent calls race-free: exactly one
 * inserts (`xmax = 0` on the returned row), the others wait for it and update. The bot's
 * subscriber count rises only on insert, in the same transaction. Returns null when the bot
 * is not the owner's (nothing is written then).
 */
export async function upsertContact(
  db: Database,
  ownerId: number,
  input: ContactUpsert,
): Promise<{ contact: StoredContact; created: boolean } | null> {
  return db.transaction(async (tx) => {
    // its own statement, not a row source of the upsert: Citus refuses a void column in
    // INSERT … SELECT, and on Citus this takes it on the coordinator, where the batch
    // writes (bulkUpsert.ts, contactBatch.ts) take theirs
    await tx.execute(lockContactKeys([upsertLockKey(ownerId, input.botId, input)]));
    const [row] = await queryRows<{ id: number; created: boolean }>(
      tx,
      upsertStatement(ownerId, input),
    );
    if (!row) return null;
    const id = Number(row.id);
    if (row.created) {
      await tx.execute(
        sql`UPDATE bots SET subscriber_count = subscriber_count + 1
            WHERE owner_id = ${ownerId} AND id = ${input.botId}`,
      );
    }
    await recordContactChanges(tx, ownerId, input.botId, [{ id, created: row.created }]);
    const contact = await contactById(tx, ownerId, id);
    if (!contact) throw new Error(`contact ${id} vanished inside its own transaction`);
    return { contact, created: row.created };
  });
}

/** upsertContact for createOrUpdateContact(s): 404 (bot_id) when no own bot has the id. */
export async function upsertOwnContact(db: Database, ownerId: number, input: ContactUpsert) {
  const result = await upsertContact(db, ownerId, input);
  if (!result) throw domainErrors.botNotFound();
  return result;
}

function upsertStatement(ownerId: number, input: ContactUpsert): SQL {
  const id = MESSENGER_IDS[input.messenger];
  const username = id.username;
  const columns: SQL[] = [sql.raw(id.column)];
  const values: SQL[] = [sql`${input.messengerId}`];
  if (username) {
    columns.push(sql.raw(username));
    values.push(sql`${input.username ?? null}`);
  }
  // createOrUpdateContact: these change only when passed non-empty (they cannot be cleared)
  const kept = ['phone', 'email', 'address', ...(username ? [username] : [])];
  const updates: SQL[] = [
    sql`name = excluded.name`,
    ...kept.map((c) => sql.raw(`${c} = coalesce(excluded.${c}, c.${c})`)),
    // the inserted row's default, now(): Citus takes no now() in DO UPDATE SET
    sql`updated_at = excluded.updated_at`,
  ];
  if (input.tags !== undefined) updates.push(sql`tags = excluded.tags`);

  return sql`
    INSERT INTO contacts AS c
      (bot_id, owner_id, messenger, name, phone, email, address, tags, first_message,
       ${sql.join(columns, sql`, `)})
    SELECT ${input.botId}::bigint, ${ownerId}::bigint, ${input.messenger}, ${input.name},
      ${input.phone ?? null}, ${input.email ?? null}, ${input.address ?? null},
      ${pgTextArray(input.tags ?? [])}::text[], ${CREATED_FROM_API}, ${sql.join(values, sql`, `)}
    -- the bot in a condition, not as the row source: Citus then sends the statement to the
    -- owner's shard; FROM bots made it run the select on every shard of bots first
    WHERE EXISTS (SELECT 1 FROM bots b WHERE b.owner_id = ${ownerId} AND b.id = ${input.botId})
    ON CONFLICT (owner_id, bot_id, messenger, messenger_key) DO UPDATE SET ${sql.join(updates, sql`, `)}
    RETURNING c.id, (c.xmax = 0) AS created`;
}
