import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  type AnyPgColumn,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/**
 * List records. The typed slot columns hold the values of the fields that have one, so
 * filters and sorts use generic btree indexes; `data` (slug → stored value) holds the other
 * fields (thin documents: src/lists/items/itemSlots.ts, docs/records.md). Partial indexes
 * keep lists that do not use a slot from paying for it on insert.
 */
export const listItems = pgTable(
  'list_items',
  {
    id: text('id').notNull(),
    schemaId: text('schema_id').notNull(),
    /** The list's owner: the tenant key, first in every key and index (docs/scaling.md). */
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    /**
     * The list as 8 bytes (migration 0016), second in every index in place of the 36-character
     * `schema_id`: an entry of a count index is half as wide. A hash of `schema_id`
     * (`hashtextextended(schema_id, 0)`), unique among an owner's lists by
     * `list_schemas_list_key_idx`, so `owner_id` and `list_key` name one list
     * (src/lists/items/listScope.ts). Also the key the table is partitioned by (migration
     * 0021, docs/records.md "One list's records in one partition"): Postgres refuses a
     * generated partition key, so every insert names it and `list_items_list_key_check_p<n>` keeps
     * any write from setting it wrong. (On a Citus database the table stays one table per shard
     * and the column stays generated: src/infra/db/engine.ts `listItemsPartitioned`.)
     */
    listKey: bigint('list_key', { mode: 'bigint' }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    t1: text('t1'),
    t2: text('t2'),
    t3: text('t3'),
    n1: numeric('n1'),
    n2: numeric('n2'),
    n3: numeric('n3'),
    // read as Postgres's text (instantOf reads it): drizzle's Date for a year before 100
    // was the wrong year (`new Date('0001-01-01 00:00:00+00')` is 2001 in V8)
    d1: timestamp('d1', { withTimezone: true, mode: 'string' }),
    d2: timestamp('d2', { withTimezone: true, mode: 'string' }),
    contactId: bigint('contact_id', { mode: 'number' }),
    botId: bigint('bot_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The record as a read answers it, written when the record is inserted (storedJson.ts), and
     * the list's layout it was written for: a read takes it only while the list's layout is
     * still that one, and every update of the record sets both to NULL (docs/records.md,
     * "Records written once").
     */
    recordJson: text('record_json'),
    recordLayout: integer('record_layout'),
  },
  (t) => [
    // the tenant key second: the key serves lookups by (owner, id) and, after the caller's
    // own rows missed, by id alone (403 or 404) — no second index on id (docs/scaling.md);
    // the list's key last, as a partitioned table's keys must hold its partition key
    primaryKey({ name: 'list_items_pkey', columns: [t.id, t.ownerId, t.listKey] }),
    // INCLUDEs every number, date and link slot (migration 0014): any combination of
    // conditions can be counted inside the list's own entries
    index('list_items_created_idx').on(t.ownerId, t.listKey, t.createdAt, t.id),
    index('list_items_updated_idx').on(t.ownerId, t.listKey, t.updatedAt, t.id),
    index('list_items_contact_idx')
      .on(t.ownerId, t.listKey, t.contactId, t.createdAt, t.id)
      .where(sql`${t.contactId} is not null`),
    index('list_items_bot_idx')
      .on(t.ownerId, t.listKey, t.botId, t.createdAt, t.id)
      .where(sql`${t.botId} is not null`),
    // The text slot indexes also INCLUDE n1–n3, d1–d2, created_at and updated_at (migration
    // 0004: drizzle cannot express INCLUDE), so equality + sort is index-only.
    index('list_items_t1_idx')
      .on(t.ownerId, t.listKey, t.t1, t.id)
      .where(sql`${t.t1} is not null`),
    index('list_items_t2_idx')
      .on(t.ownerId, t.listKey, t.t2, t.id)
      .where(sql`${t.t2} is not null`),
    index('list_items_t3_idx')
      .on(t.ownerId, t.listKey, t.t3, t.id)
      .where(sql`${t.t3} is not null`),
    // Narrow twins of the text slot indexes for filtered totals: equal keys share one entry
    // (B-tree deduplication, which INCLUDE rules out), so counting a large share of a list
    // reads a far smaller index (docs/records.md).
    ...(['t1', 't2', 't3'] as const).map((slot) => countIndex(t, slot)),
    // The number and date slot indexes INCLUDE the other number and date slots and both
    // timestamps (migration 0014), so a range combined with others stays index-only.
    index('list_items_n1_idx')
      .on(t.ownerId, t.listKey, t.n1, t.id)
      .where(sql`${t.n1} is not null`),
    index('list_items_n2_idx')
      .on(t.ownerId, t.listKey, t.n2, t.id)
      .where(sql`${t.n2} is not null`),
    index('list_items_n3_idx')
      .on(t.ownerId, t.listKey, t.n3, t.id)
      .where(sql`${t.n3} is not null`),
    index('list_items_d1_idx')
      .on(t.ownerId, t.listKey, t.d1, t.id)
      .where(sql`${t.d1} is not null`),
    index('list_items_d2_idx')
      .on(t.ownerId, t.listKey, t.d2, t.id)
      .where(sql`${t.d2} is not null`),
    // Narrow twins of the number and date slot indexes, for filtered totals (migration 0013):
    // without the 36-character record id an entry is about half as wide, and dates with
    // repeated values share one entry (numeric cannot be deduplicated). Without them a range
    // over a large share of a list is counted from the wide index, or, once that index costs
    // more than the table, by a parallel scan of the whole table (docs/records.md). Each costs
    // every insert with a value in that slot one more entry.
    ...(['n1', 'n2', 'n3', 'd1', 'd2'] as const).map((slot) => countIndex(t, slot)),
  ],
);

type CountedSlot = 't1' | 't2' | 't3' | 'n1' | 'n2' | 'n3' | 'd1' | 'd2';

/** A slot's narrow count index: the tenant, the list and the value, nothing else. */
function countIndex(
  t: Record<'ownerId' | 'listKey' | CountedSlot, AnyPgColumn>,
  slot: CountedSlot,
) {
  return index(`list_items_${slot}_count_idx`)
    .on(t.ownerId, t.listKey, t[slot])
    .where(sql`${t[slot]} is not null`);
}
