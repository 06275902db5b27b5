import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Tables whose `owner_id` the background backfill has filled for every row that existed
 * before the column (src/infra/db/backfillOwners.ts): once a table is here it is not walked
 * again.
 */
export const ownerBackfills = pgTable('owner_backfills', {
  tableName: text('table_name').primaryKey(),
  doneAt: timestamp('done_at', { withTimezone: true }).notNull().defaultNow(),
});
