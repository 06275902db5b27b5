import AsyncLock from 'async-lock';
import { sql, type SQL } from 'drizzle-orm';
import { pgTextArray } from '../infra/db/textArray.js';
import { domainErrors } from '../shared/domainErrors.js';

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

/** Where a contact write waits for the writes of its contacts ahead of it, if anywhere. */
export interface ContactWriteOrder {
  hold<T>(keys: readonly string[], write: () => Promise<T>): Promise<T>;
}

/**
 * For a write inside a transaction that is already open (a call with an Idempotency-Key runs
 * in its key's transaction): it holds a connection, so it must not wait in the process's
 * queue — ten such waiters would hold the pool's ten connections while the write ahead of
 * them waited for one. The advisory locks alone order it.
 */
export const UNQUEUED: ContactWriteOrder = { hold: (_keys, write) => write() };

/**
 * How long a write waits in this process for another write of the same contact before it is
 * answered 503 (nothing written; retry). Writes of one contact run one at a time, so this
 * bounds a client's wait when it sends one contact faster than it can be written.
 */
const QUEUE_WAIT_MS = 15_000;

/** Writes that may wait for one contact in this process; the next is answered 503 at once. */
const MAX_QUEUED = 1000;

/**
 * This process's queue of contact writes, by contact key. A write waits here, holding no
 * pool connection, until no other write of this process holds one of its contacts; only then
 * does it take a connection and the advisory locks (which order the writes of other
 * processes). Without it, simultaneous calls for one contact each held a connection while
 * they waited on the advisory lock: the pool's ten went to that one contact and every other
 * request of the process waited for a connection too (with the pool's wait then 2 s, 28 of 50
 * calls for one contact were answered 503 on a loaded Citus cluster, where one upsert alone
 * takes ~44 ms). Imports take only the advisory locks: they hold no key here while they wait.
 */
export class ContactWriteQueue implements ContactWriteOrder {
  private readonly locks: AsyncLock;

  /** `maxWaitMs`: how long a write may wait here before its 503 */
  constructor(maxWaitMs = QUEUE_WAIT_MS) {
    this.locks = new AsyncLock({ timeout: maxWaitMs, maxPending: MAX_QUEUED });
  }

  /** Runs `write` once this process holds every key, taken in one order (no cycle). */
  async hold<T>(keys: readonly string[], write: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    try {
      return await this.locks.acquire(sorted, write);
    } catch (err) {
      if (err instanceof Error && QUEUE_FULL.test(err.message)) throw domainErrors.contactBusy();
      throw err;
    }
  }
}

/** async-lock's errors for a wait past its timeout and for a queue past maxPending. */
const QUEUE_FULL = /^(async-lock timed out in queue|Too many pending tasks in queue) /;
