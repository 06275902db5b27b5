import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/infra/db/client.js';
import type { Messenger } from '../../src/infra/db/schema/contacts.js';

export interface SeedContact {
  messenger?: Messenger;
  telegram_id?: number | null;
  max_user_id?: number | null;
  vk_user_id?: number | null;
  viber_id?: string | null;
  telegram_username?: string | null;
  max_username?: string | null;
  name?: string;
  phone?: string | null;
  email?: string | null;
  address?: string | null;
  avatar?: string | null;
  tags?: string[];
  preview?: boolean;
  created_at?: Date;
  unsubscribed_at?: Date | null;
  variables?: { name: string; value: string | null; type?: number }[];
}

let nextId = 1_000_000 + Math.floor(Math.random() * 1_000_000) * 1000;

/**
 * A contact of the bot `botId` (and of its owner), written straight into Postgres as the bot
 * platform would: the one way tests make a contact, as preview contacts, chosen creation times,
 * variables and web contacts cannot be made through the API.
 */
export async function seedContact(
  db: Database,
  botId: number,
  c: SeedContact = {},
): Promise<number> {
  const messenger = c.messenger ?? 'telegram';
  const ids = {
    telegram_id: c.telegram_id ?? (messenger === 'telegram' ? nextId++ : null),
    max_user_id: c.max_user_id ?? (messenger === 'max' ? nextId++ : null),
    vk_user_id: c.vk_user_id ?? (messenger === 'vk' ? nextId++ : null),
    viber_id: c.viber_id ?? (messenger === 'viber' ? `viber-${nextId++}` : null),
  };
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO contacts (bot_id, owner_id, messenger, telegram_id, max_user_id, vk_user_id,
          viber_id, telegram_username, max_username, name, phone, email, address, avatar, tags,
          preview, created_at, unsubscribed_at)
        SELECT b.id, b.owner_id, ${messenger}, ${ids.telegram_id}, ${ids.max_user_id},
          ${ids.vk_user_id}, ${ids.viber_id}, ${c.telegram_username ?? null},
          ${c.max_username ?? null}, ${c.name ?? 'Seeded'}, ${c.phone ?? null}, ${c.email ?? null},
          ${c.address ?? null}, ${c.avatar ?? null},
          ${`{${(c.tags ?? []).map((t) => JSON.stringify(t)).join(',')}}`}::text[],
          ${c.preview ?? false}, ${(c.created_at ?? new Date()).toISOString()}::timestamptz,
          ${c.unsubscribed_at ? c.unsubscribed_at.toISOString() : null}::timestamptz
        FROM bots b WHERE b.id = ${botId}
        RETURNING id`,
  );
  if (!row) throw new Error(`no bot ${botId}`);
  const id = Number(row.id);
  for (const v of c.variables ?? []) {
    await db.execute(
      sql`INSERT INTO contact_variables (contact_id, owner_id, name, value, type)
          SELECT ${id}, owner_id, ${v.name}, ${v.value}, ${v.type ?? 0} FROM contacts WHERE id = ${id}`,
    );
  }
  return id;
}

export async function seedContacts(
  db: Database,
  botId: number,
  n: number,
  c: SeedContact = {},
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(await seedContact(db, botId, c));
  return ids;
}

export async function subscriberCount(db: Database, botId: number): Promise<number> {
  return scalar(db, sql`SELECT subscriber_count AS n FROM bots WHERE id = ${botId}`);
}

/** The first column of the first row as a number (int8 arrives as text through drizzle's pg driver). */
export async function scalar(db: Database, query: SQL): Promise<number> {
  const [row] = await queryRows<Record<string, unknown>>(db, query);
  const value = row ? Object.values(row)[0] : undefined;
  if (value === undefined || value === null) throw new Error('no value');
  return Number(value);
}

/** Plain OFFSET over the same rows getContacts lists: the reference answer. */
export async function plainOffsetIds(
  db: Database,
  botId: number,
  offset: number,
  limit: number,
): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`SELECT id FROM contacts WHERE bot_id = ${botId} AND NOT preview
        ORDER BY id OFFSET ${offset} LIMIT ${limit}`,
  );
  return rows.map((r) => Number(r.id));
}
