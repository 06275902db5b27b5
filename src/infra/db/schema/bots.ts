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
    // owner first: the tenant key (docs/scaling.md); it also serves "all of an owner's bots"
    primaryKey({ name: 'bots_pkey', columns: [t.ownerId, t.id] }),
    index('bots_project_idx').on(t.projectUuid),
    // by id alone: the 403-or-404 question, asked after the caller's own bots missed
    index('bots_id_idx').on(t.id),
  ],
);

export type Bot = typeof bots.$inferSelect;
