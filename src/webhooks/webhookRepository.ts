import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../infra/db/client.js';
import { webhooks, type WebhookRow } from '../infra/db/schema/webhooks.js';
import { encodeCursor } from '../changes/cursor.js';
import { feedHead } from '../changes/readChanges.js';

/** Webhooks an account may have. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;

export type NewWebhook = Pick<
  WebhookRow,
  'id' | 'accountId' | 'url' | 'types' | 'schemaId' | 'botId' | 'secret' | 'createdAt'
>;

/**
 * Creates a webhook that delivers every change committed after it: its cursor is the head
 * of the feed, taken in the same transaction. Undefined when the account has its maximum;
 * the account's advisory lock keeps concurrent creates from passing it together.
 */
export async function insertWebhook(db: Database, hook: NewWebhook) {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext('webhooks'), ${hook.accountId}::int)`,
    );
    const [{ n }] = (await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from webhooks where account_id = ${hook.accountId}`,
    )) as [{ n: number }];
    if (n >= MAX_WEBHOOKS_PER_ACCOUNT) return undefined;
    // the head as the account's changes see it (on Citus: their worker's snapshot)
    const snapshot = await feedHead(tx, hook.accountId);
    const [row] = await tx
      .insert(webhooks)
      .values({
        ...hook,
        cursor: encodeCursor({ a: snapshot, last: 0 }),
        nextAttemptAt: hook.createdAt,
      })
      .returning();
    return row;
  });
}

export async function accountWebhooks(db: Database, accountId: number): Promise<WebhookRow[]> {
  return db
    .select()
    .from(webhooks)
    .where(eq(webhooks.accountId, accountId))
    .orderBy(asc(webhooks.createdAt), asc(webhooks.id));
}

export async function findWebhook(db: Database, id: string): Promise<WebhookRow | undefined> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
  return row;
}

export async function removeWebhook(db: Database, id: string, accountId: number) {
  const gone = await db
    .delete(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.accountId, accountId)))
    .returning({ id: webhooks.id });
  return gone.length > 0;
}

/**
 * Leases up to `n` webhooks that are due to this instance until `until`: enabled, due, and
 * not leased by a live instance (an expired lease is free, so a dead instance's webhooks are
 * taken over). SKIP LOCKED: instances claiming at once never wait on each other.
 */
export async function claimDue(
  db: Database,
  instance: string,
  now: Date,
  until: Date,
  n: number,
): Promise<WebhookRow[]> {
  if (n <= 0) return [];
  const due = db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(
      and(
        isNull(webhooks.disabledAt),
        lte(webhooks.nextAttemptAt, now),
        or(isNull(webhooks.leasedUntil), lt(webhooks.leasedUntil, now)),
      ),
    )
    .orderBy(asc(webhooks.nextAttemptAt))
    .limit(n)
    .for('update', { skipLocked: true });
  return db
    .update(webhooks)
    .set({ leasedBy: instance, leasedUntil: until })
    .where(inArray(webhooks.id, due))
    .returning();
}

/** While this instance still holds the lease. */
const mine = (id: string, instance: string) =>
  and(eq(webhooks.id, id), eq(webhooks.leasedBy, instance));

/** Keeps the batch about to be sent, so a retry (by any instance) sends the same one. */
export async function savePending(
  db: Database,
  id: string,
  instance: string,
  pending: { id: string; body: string; next: string; since: Date },
): Promise<boolean> {
  const saved = await db
    .update(webhooks)
    .set({
      pendingId: pending.id,
      pendingBody: pending.body,
      pendingNext: pending.next,
      pendingSince: pending.since,
    })
    .where(mine(id, instance))
    .returning({ id: webhooks.id });
  return saved.length > 0;
}

/** Nothing new: the cursor moves to the head it read, the lease ends, next look at `next`. */
export async function idle(db: Database, id: string, instance: string, cursor: string, next: Date) {
  await db
    .update(webhooks)
    .set({ cursor, nextAttemptAt: next, leasedBy: null, leasedUntil: null })
    .where(mine(id, instance));
}

/**
 * The receiver took the batch: the cursor moves past it. The instance keeps the lease until
 * `keep.until` to go on with the next batch. Answers false when the row was not this batch's
 * any more (the webhook was deleted, or another instance took over and got there first).
 */
export async function delivered(
  db: Database,
  id: string,
  pendingId: string,
  now: Date,
  keep: { instance: string; until: Date },
): Promise<boolean> {
  const moved = await db
    .update(webhooks)
    .set({
      cursor: sql`${webhooks.pendingNext}`,
      pendingId: null,
      pendingBody: null,
      pendingNext: null,
      pendingSince: null,
      attempts: 0,
      failingSince: null,
      lastError: null,
      lastSuccessAt: now,
      nextAttemptAt: now,
      leasedBy: keep.instance,
      leasedUntil: keep.until,
    })
    // the batch, not the lease: a slow success after a takeover still counts once
    .where(and(eq(webhooks.id, id), eq(webhooks.pendingId, pendingId)))
    .returning({ id: webhooks.id });
  return moved.length > 0;
}

/** Gives the webhook up at once (the worker stops): another instance may take it now. */
export async function release(db: Database, id: string, instance: string) {
  await db.update(webhooks).set({ leasedBy: null, leasedUntil: null }).where(mine(id, instance));
}

/**
 * The batch was not taken: retry at `retryAt`, or disable the webhook when it has been
 * failing for `giveUpMs`. Answers whether it was disabled.
 */
export async function failed(
  db: Database,
  id: string,
  instance: string,
  now: Date,
  error: string,
  retryAt: Date,
  giveUpMs: number,
): Promise<boolean> {
  const stamp = now.toISOString();
  return db.transaction(async (tx) => {
    // no to_char() here: Citus refuses a function that is not immutable inside CASE in an
    // UPDATE of a reference table, so the reason is written by a second statement
    const [row] = await queryRows<{ disabled: boolean; failing_since: string | Date }>(
      tx,
      sql`update webhooks set
            attempts = attempts + 1,
            failing_since = coalesce(failing_since, ${stamp}::timestamptz),
            last_error = ${error},
            next_attempt_at = ${retryAt.toISOString()}::timestamptz,
            leased_by = null, leased_until = null,
            disabled_at = case
              when ${stamp}::timestamptz - coalesce(failing_since, ${stamp}::timestamptz)
                   >= make_interval(secs => ${giveUpMs / 1000})
              then ${stamp}::timestamptz end
          where id = ${id} and leased_by = ${instance}
          returning disabled_at is not null as disabled, failing_since`,
    );
    if (!row?.disabled) return false;
    const since = new Date(row.failing_since).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await tx.execute(
      sql`update webhooks set disabled_reason = ${`failing since ${since}: ${error}`}
          where id = ${id}`,
    );
    return true;
  });
}

/** Disables a webhook that cannot go on (its cursor expired): `reason` says why. */
export async function disable(db: Database, id: string, now: Date, reason: string) {
  await db
    .update(webhooks)
    .set({ disabledAt: now, disabledReason: reason, leasedBy: null, leasedUntil: null })
    .where(eq(webhooks.id, id));
}
