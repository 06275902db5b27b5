import {
  bigint,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';

export const projects = pgTable(
  'projects',
  {
    uuid: uuid('uuid').primaryKey(),
    ownerId: bigint('owner_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    /** Live lists; bumped in the same transaction as a list insert/delete (the limits: 5000 cap). */
    listCount: integer('list_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('projects_owner_idx').on(t.ownerId)],
);

/** Team members: their keys do not reach the project (the API conventions). */
export const projectMembers = pgTable(
  'project_members',
  {
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.uuid),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectUuid, t.accountId] })],
);

export type Project = typeof projects.$inferSelect;
