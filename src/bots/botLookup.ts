import { and, eq } from 'drizzle-orm';
import type { Database } from '../infra/db/client.js';
import { bots } from '../infra/db/schema/bots.js';
import { domainErrors } from '../shared/domainErrors.js';

/*
 * The bot look-ups of every domain that names a bot: lists (createListSchema), contacts
 * (createOrUpdateContacts), the change feed and webhooks (their `bot_id` filter).
 */

const BOT_COLUMNS = { id: bots.id, projectUuid: bots.projectUuid, ownerId: bots.ownerId };

/**
 * The bot `botId` when it is `accountId`'s: 404 when there is none, 403 for another account's.
 * Looked up among the caller's own bots first (one shard on Citus); only a miss looks further.
 */
export async function requireOwnBot(db: Database, accountId: number, botId: number) {
  const bot = await findOwnBot(db, accountId, botId);
  if (bot) return bot;
  if (!(await findBot(db, botId))) throw domainErrors.botNotFound();
  throw domainErrors.foreignBot();
}

/** The bot's project, when `ownerId` owns a bot with the id. */
export async function findOwnBot(db: Database, ownerId: number, botId: number) {
  const [row] = await db
    .select(BOT_COLUMNS)
    .from(bots)
    .where(and(eq(bots.ownerId, ownerId), eq(bots.id, botId)));
  return row;
}

/**
 * The bot's project and owner, or undefined when no bot has the id — whoever owns it (the
 * question fans out to every shard on Citus: only after an own-rows lookup missed).
 */
export async function findBot(db: Database, botId: number) {
  const [row] = await db.select(BOT_COLUMNS).from(bots).where(eq(bots.id, botId));
  return row;
}
