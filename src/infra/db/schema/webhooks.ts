import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Webhooks (src/webhooks/): where an account's changes are pushed, how far delivery got
 * (`cursor`, a change feed cursor), the batch in flight, and who is delivering it (a lease
 * that expires, so another instance takes over from one that died).
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    url: text('url').notNull(),
    types: text('types').array(),
    schemaId: text('schema_id'),
    botId: bigint('bot_id', { mode: 'number' }),
    /** the signing secret, sealed with ENCRYPTION_KEY */
    secret: text('secret').notNull(),
    /** the feed cursor after the last delivered batch */
    cursor: text('cursor').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
    leasedBy: text('leased_by'),
    /** the batch being delivered: its message id, body and the cursor after it */
    pendingId: text('pending_id'),
    pendingBody: text('pending_body'),
    pendingNext: text('pending_next'),
    /** when the oldest change of the pending batch happened (the delivery lag) */
    pendingSince: timestamp('pending_since', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    failingSince: timestamp('failing_since', { withTimezone: true }),
    lastError: text('last_error'),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    disabledReason: text('disabled_reason'),
  },
  (t) => [
    index('webhooks_account_idx').on(t.accountId, t.createdAt),
    index('webhooks_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.disabledAt} is null`),
  ],
);

export type WebhookRow = typeof webhooks.$inferSelect;
