import { bigint, foreignKey, primaryKey, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { listSchemas } from './listSchemas.js';

/**
 * Values of a deleted field that are still being erased from the list's records
 * (deleteListSchemaField). The row is written in the same transaction that removes the field, so an
 * erase cut short by a crash is resumed by the background job; while it exists the
 * field's slot is not given to a new field and its slug cannot be added back.
 */
export const listFieldErasures = pgTable(
  'list_field_erasures',
  {
    schemaId: text('schema_id').notNull(),
    slug: text('slug').notNull(),
    /** the list's owner (the tenant key) */
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    /** the slot column the field used, cleared together with `data -> slug` */
    slot: text('slot'),
    /** keyset position (created_at, id) of the last erased batch; null before the first */
    cursorCreatedAt: timestamp('cursor_created_at', { withTimezone: true, mode: 'string' }),
    cursorId: text('cursor_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** bumped after every batch: an eraser that stopped bumping it is presumed dead */
    touchedAt: timestamp('touched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'list_field_erasures_pkey', columns: [t.ownerId, t.schemaId, t.slug] }),
    foreignKey({
      name: 'list_field_erasures_list_fk',
      columns: [t.ownerId, t.schemaId],
      foreignColumns: [listSchemas.ownerId, listSchemas.id],
    }).onDelete('cascade'),
  ],
);
