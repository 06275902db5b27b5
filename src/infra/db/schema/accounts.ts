import { bigserial, boolean, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const accounts = pgTable(
  'accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    plan: text('plan', { enum: ['pro', 'free'] }).notNull(),
    blocked: boolean('blocked').notNull().default(false),
    /** SHA-256 (hex) of the API key; the key itself is never stored. */
    apiKeyHash: text('api_key_hash').notNull(),
    /** argon2id hash; null until a password is set. */
    passwordHash: text('password_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('accounts_email_key').on(t.email),
    uniqueIndex('accounts_api_key_hash_key').on(t.apiKeyHash),
  ],
);

export type Account = typeof accounts.$inferSelect;
