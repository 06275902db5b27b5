import { sql, type SQL } from 'drizzle-orm';
import { pgTextArray } from '../infra/db/textArray.js';

/** The advisory lock class of contact keys (idempotency keys use another). */
const LOCK_CLASS = 0x4c43;

/** What a contact is locked by: its bot and messenger ID, as the unique index matches it. */
export const contactLockKey = (
  ownerId: number,
  botId: number,
  messenger: string,
  messengerKey: string,
) => `${ownerId}:${botId}:${messenger}:${messengerKey}`;

/** The lock key of a contact an API call upserts (its messenger ID is the messenger key). */
export const upsertLockKey = (
  ownerId: number,
  botId: number,
  u: { messenger: string; messengerId: number | string },
) => contactLockKey(ownerId, botId, u.messenger, String(u.messengerId));

/**
 * Takes, for the rest of the transaction, the locks of these contact keys in one order
 * (their hashes sorted). Every write of contacts takes its keys' locks before it touches a
 * row, so two batches that share contacts, given in different orders, one waits for the
 * other instead of each locking half and deadlocking (Postgres then aborts one after a
 * second: a 503). Two keys of one hash share a lock: more waiting, never a deadlock.
 */
export function lockContactKeys(keys: readonly string[]): SQL {
  return sql`SELECT pg_advisory_xact_lock(${LOCK_CLASS}, h)
    FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest(${pgTextArray(keys)}::text[]) AS k ORDER BY h) AS sorted`;
}
