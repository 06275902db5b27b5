import { bigint, index, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The first answer to each Idempotency-Key, per account, written in the same transaction as
 * the change it answers (src/idempotency/). Kept until `expires_at`, then purged.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    key: text('key').notNull(),
    /** the method and a hash of its parameters: a repeat must match both */
    method: text('method').notNull(),
    fingerprint: text('fingerprint').notNull(),
    status: smallint('status').notNull(),
    /** the JSON answer as sent, byte for byte; null for 204 */
    body: text('body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ownerId, t.key] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);
