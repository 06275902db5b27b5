import { bigint, integer, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The columns both kinds of a list's kept counts share (listBandCounts.ts,
 * listValueCounts.ts), in two parts around each table's own arrays: which list and slot, and
 * the snapshot they were counted in.
 */
export function keptCountKey() {
  return {
    /** the list's owner (the tenant key) */
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    listKey: bigint('list_key', { mode: 'bigint' }).notNull(),
    /** the slot's number in its table (bandCounts.ts, valueCounts.ts) */
    slot: smallint('slot').notNull(),
  };
}

export function keptCountSnapshot() {
  return {
    /** `pg_current_snapshot()` of the count, as text: the writes it did not see are the ones to apply */
    snapshot: text('snapshot').notNull(),
    /** the list's version and field layout in that snapshot */
    version: bigint('version', { mode: 'number' }).notNull(),
    layout: integer('layout').notNull(),
    countedAt: timestamp('counted_at', { withTimezone: true }).notNull().defaultNow(),
  };
}
