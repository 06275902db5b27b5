import {
  bigint,
  bigserial,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { projects } from './projects.js';

export const bots = pgTable(
  'bots',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.uuid),
    /** Owner of the project, copied so ownership checks need no join. */
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    name: text('name').notNull(),
    subscriberCount: integer('subscriber_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // with the tenant key (docs/scaling.md), second so that lookups by id alone use it too
    primaryKey({ name: 'bots_pkey', columns: [t.id, t.ownerId] }),
    index('bots_project_idx').on(t.projectUuid),
    index('bots_owner_idx').on(t.ownerId),
  ],
);

export type Bot = typeof bots.$inferSelect;
