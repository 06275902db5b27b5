import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import type { StoredField } from './listSchemas.js';

/** A 64-bit transaction ID (Postgres `xid8`), read and written as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The change feed (src/changes/): one row per committed change to a list, a list item or a
 * contact, written in the same statement or transaction as the change. `txid` is the writing
 * transaction, so a reader can tell which transactions a snapshot saw (docs/changes.md).
 */
export const changes = pgTable(
  'changes',
  {
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    txid: xid8('txid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    type: text('type').notNull(),
    schemaId: text('schema_id'),
    botId: bigint('bot_id', { mode: 'number' }),
    itemId: text('item_id'),
    contactId: bigint('contact_id', { mode: 'number' }),
    /** list_item events: the list's field layout the stored values belong to */
    layout: integer('layout'),
    /**
     * list_item events: `{data, slots, created_at, updated_at}` as stored (sealed values stay
     * sealed); list and contact events: the shape the read methods answer; deletes: null.
     * `json`, not `jsonb`: it keeps the answer's key order (fields in the order they were sent).
     */
    data: json('data'),
    /**
     * list_item updates and deletes: the record's row as it was before the change (`to_jsonb`
     * of the list_items row, values as stored, sealed ones sealed), so a remembered filtered
     * total can tell whether the record matched before (src/lists/items/listTotals.ts). Null
     * where a write does not keep it; getChanges never answers it.
     */
    previous: jsonb('previous'),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.seq] }),
    // a reader at the head looks only at transactions its last snapshot had not seen
    index('changes_account_txid_idx').on(t.accountId, t.txid, t.seq),
    // retention purges by age; BRIN costs next to nothing on insert
    index('changes_occurred_brin').using('brin', t.occurredAt),
  ],
);

/** How far retention has purged: a cursor from before this is expired. */
export const changeFeedState = pgTable('change_feed_state', {
  id: integer('id').primaryKey().default(1),
  purgedTxid: xid8('purged_txid')
    .notNull()
    .default(sql`'0'::xid8`),
  purgedSeq: bigint('purged_seq', { mode: 'number' }).notNull().default(0),
});

/**
 * Every field layout a list has had (its `fields` after creation and after each field change),
 * so a list_item event is shown with the fields it was written under.
 */
export const listLayouts = pgTable(
  'list_layouts',
  {
    /** the list's owner (the tenant key) */
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    schemaId: text('schema_id').notNull(),
    layout: integer('layout').notNull(),
    fields: jsonb('fields').$type<StoredField[]>().notNull(),
  },
  (t) => [primaryKey({ name: 'list_layouts_pkey', columns: [t.ownerId, t.schemaId, t.layout] })],
);
