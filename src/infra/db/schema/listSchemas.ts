import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { projects } from './projects.js';

/** One field of a list, in the order it was sent (JSONB would sort object keys, so fields are an array). */
export interface StoredField {
  slug: string;
  name: string;
  type: string;
  currency?: string;
  is_required: boolean;
  is_hidden: boolean;
  is_encryptable: boolean;
  /** typed slot column holding this field's value in list_items (docs/records.md), if any */
  slot?: string;
}

export const listSchemas = pgTable(
  'list_schemas',
  {
    id: text('id').notNull(),
    projectUuid: uuid('project_uuid')
      .notNull()
      .references(() => projects.uuid),
    /** Owner of the project, copied so ownership checks need no join. */
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    botId: bigint('bot_id', { mode: 'number' }),
    name: text('name').notNull(),
    fields: jsonb('fields').$type<StoredField[]>().notNull(),
    isMenu: boolean('is_menu').notNull().default(false),
    /** Live records, kept in the same transaction as inserts and deletes (fast unfiltered totals). */
    itemCount: bigint('item_count', { mode: 'number' }).notNull().default(0),
    /**
     * Bumped in the same transaction as every change to the list's fields or items, so an
     * answer remembered under one version is exact for as long as the version stands
     * (src/lists/items/readCache.ts).
     */
    version: bigint('version', { mode: 'number' }).notNull().default(0),
    /** Bumped with every change of `fields`; list_layouts keeps each (change feed). */
    layout: integer('layout').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set on delete: the list is gone at once; its records are reclaimed in the background. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    // with the tenant key (docs/scaling.md), second so that lookups by id alone use it too
    primaryKey({ name: 'list_schemas_pkey', columns: [t.id, t.ownerId] }),
    index('list_schemas_owner_idx').on(t.ownerId, t.createdAt, t.id),
    index('list_schemas_project_idx').on(t.projectUuid),
    // list_items names a list by this hash of its id (list_items.list_key, migration 0016):
    // no two lists of an owner, deleted ones included, may share it
    uniqueIndex('list_schemas_list_key_idx').on(t.ownerId, sql`hashtextextended(${t.id}, 0)`),
    // the background reclaim finds deleted lists without scanning live ones
    index('list_schemas_deleted_idx')
      .on(t.deletedAt)
      .where(sql`${t.deletedAt} is not null`),
  ],
);

export type ListSchemaRow = typeof listSchemas.$inferSelect;
