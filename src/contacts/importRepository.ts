import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../infra/db/client.js';
import { contactLockKey, lockContactKeys } from './contactLocks.js';
import type { ImportRecord } from './importLine.js';
import { recordContactChanges } from '../changes/recordContacts.js';

type Db = Pick<Database, 'execute'>;

export interface ImportBot {
  id: number;
  ownerId: number;
}

export async function findImportBot(db: Db, botId: number): Promise<ImportBot | undefined> {
  const [row] = await queryRows<{ owner_id: string | number }>(
    db,
    sql`SELECT owner_id FROM bots WHERE id = ${botId}`,
  );
  return row ? { id: botId, ownerId: Number(row.owner_id) } : undefined;
}

/** Columns an import line may change on an existing contact (never the bot or its ID). */
const UPDATABLE = [
  'name',
  'phone',
  'email',
  'address',
  'avatar',
  'telegram_username',
  'max_username',
  'preview',
  'created_at',
  'unsubscribed_at',
  'tags',
] as const;

/** The batch travels as one jsonb parameter, read back as rows of these types. */
const RECORD_COLUMNS = sql.raw(`line int, messenger text, key text, given text[], name text,
  phone text, email text, address text, avatar text, telegram_username text,
  max_username text, preview boolean, tags jsonb, created_at timestamptz,
  unsubscribed_at timestamptz, telegram_id bigint, max_user_id bigint, vk_user_id bigint,
  viber_id text`);

function recordset(records: ImportRecord[]): SQL {
  const json = JSON.stringify(
    records.map((r) => ({
      line: r.line,
      messenger: r.messenger,
      key: r.key,
      // which columns the line gave: absent ones are left alone on update
      given: Object.keys(r.values),
      ...r.values,
    })),
  );
  return sql`jsonb_to_recordset(${json}::jsonb) AS i(${RECORD_COLUMNS})`;
}

const tagsOf = sql.raw(`ARRAY(SELECT jsonb_array_elements_text(i.tags))`);

/** Updates the batch's contacts that exist (matched by messenger ID); returns line → contact id. */
async function updateExisting(db: Db, bot: ImportBot, records: ImportRecord[]) {
  const keyed = records.filter((r) => r.key !== null);
  if (keyed.length === 0) return new Map<number, number>();
  const sets = UPDATABLE.map((col) => {
    const value = col === 'tags' ? tagsOf : sql.raw(`i.${col}`);
    return sql`${sql.raw(col)} = CASE WHEN ${col} = ANY(i.given) THEN ${value} ELSE c.${sql.raw(col)} END`;
  });
  const rows = await queryRows<{ line: number; id: string | number }>(
    db,
    sql`UPDATE contacts c SET ${sql.join(sets, sql`, `)}, updated_at = now()
        FROM ${recordset(keyed)}
        WHERE c.owner_id = ${bot.ownerId} AND c.bot_id = ${bot.id} AND c.messenger = i.messenger AND c.messenger_key = i.key
        RETURNING i.line, c.id`,
  );
  return new Map(rows.map((r) => [Number(r.line), Number(r.id)]));
}

/**
 * Inserts the lines whose messenger ID is new to the bot. Ids are drawn first so each line
 * knows its contact; a line whose messenger ID exists (or is being inserted by someone
 * else, whom ON CONFLICT waits for) is skipped, to be updated.
 */
async function insertNew(db: Db, bot: ImportBot, records: ImportRecord[]) {
  if (records.length === 0) return new Map<number, number>();
  const rows = await queryRows<{ line: number; id: string | number }>(
    db,
    sql`WITH input AS (
          SELECT nextval(pg_get_serial_sequence('contacts', 'id')) AS new_id, i.*
          FROM ${recordset(records)}
          ORDER BY i.line
        ), inserted AS (
          INSERT INTO contacts (id, bot_id, owner_id, messenger, telegram_id, max_user_id,
            vk_user_id, viber_id, name, phone, email, address, avatar, telegram_username,
            max_username, tags, preview, created_at, unsubscribed_at)
          SELECT new_id, ${bot.id}, ${bot.ownerId}, messenger, telegram_id, max_user_id,
            vk_user_id, viber_id, coalesce(name, ''), phone, email, address, avatar,
            telegram_username, max_username,
            coalesce(ARRAY(SELECT jsonb_array_elements_text(input.tags)), '{}'),
            coalesce(preview, false), coalesce(created_at, now()), unsubscribed_at
          FROM input
          ON CONFLICT (owner_id, bot_id, messenger, messenger_key) DO NOTHING
          RETURNING id
        )
        SELECT input.line, input.new_id AS id FROM input JOIN inserted ON inserted.id = input.new_id`,
  );
  return new Map(rows.map((r) => [Number(r.line), Number(r.id)]));
}

async function upsertVariables(
  db: Db,
  bot: ImportBot,
  records: ImportRecord[],
  ids: Map<number, number>,
) {
  const rows = records.flatMap((r) =>
    r.variables.map((v) => ({ contact_id: ids.get(r.line), ...v })),
  );
  if (rows.length === 0) return;
  await db.execute(
    sql`INSERT INTO contact_variables (contact_id, name, value, type, owner_id)
        SELECT v.contact_id, v.name, v.value, v.type, c.owner_id
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          AS v(contact_id bigint, name text, value text, type smallint)
        JOIN contacts c ON c.owner_id = ${bot.ownerId} AND c.id = v.contact_id
        ON CONFLICT (owner_id, contact_id, name) DO UPDATE SET value = excluded.value, type = excluded.type`,
  );
}

/** How many rounds a line may lose to concurrent deletes before the batch gives up. */
const MAX_ROUNDS = 3;

/**
 * Writes one batch (messenger IDs distinct within it) all-or-nothing: existing contacts
 * updated, new ones inserted, variables upserted by name, and the bot's subscriber count
 * raised by the new non-preview contacts; every contact written is recorded in the change feed.
 */
export async function writeImportBatch(
  db: Database,
  bot: ImportBot,
  records: ImportRecord[],
): Promise<{ imported: number; updated: number }> {
  return db.transaction(async (tx) => {
    // the batch's contacts locked first, in the order every contact write takes them
    const keys = records.flatMap((r) =>
      r.key === null ? [] : [contactLockKey(bot.ownerId, bot.id, r.messenger, r.key)],
    );
    if (keys.length > 0) await tx.execute(lockContactKeys(keys));
    const ids = new Map<number, number>();
    const created: number[] = [];
    let imported = 0;
    let updated = 0;
    // preview contacts are test contacts, not subscribers (getContacts)
    let newSubscribers = 0;
    let pending = records;
    // Insert first (a fresh import is one statement); lines whose messenger ID exists are
    // then updated. A line found in neither (its contact deleted meanwhile) goes round again.
    for (let round = 0; pending.length > 0; round++) {
      if (round === MAX_ROUNDS) throw new Error('contacts kept changing under the import');
      const fresh = await insertNew(tx, bot, pending);
      created.push(...fresh.values());
      const found = await updateExisting(
        tx,
        bot,
        pending.filter((r) => !fresh.has(r.line)),
      );
      for (const [line, id] of [...fresh, ...found]) ids.set(line, id);
      imported += fresh.size;
      updated += found.size;
      newSubscribers += pending.filter(
        (r) => fresh.has(r.line) && r.values.preview !== true,
      ).length;
      pending = pending.filter((r) => !ids.has(r.line));
    }
    await upsertVariables(tx, bot, records, ids);
    const fresh = new Set(created);
    await recordContactChanges(
      tx,
      bot.ownerId,
      bot.id,
      [...new Set(ids.values())].map((id) => ({ id, created: fresh.has(id) })),
    );
    if (newSubscribers > 0) {
      await tx.execute(
        sql`UPDATE bots SET subscriber_count = subscriber_count + ${newSubscribers}
            WHERE owner_id = ${bot.ownerId} AND id = ${bot.id}`,
      );
    }
    return { imported, updated };
  });
}
