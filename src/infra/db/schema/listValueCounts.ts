import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { keptCountKey, keptCountSnapshot } from './keptCountColumns.js';

/**
 * A list's records counted per value of one text slot, as one snapshot saw them
 * (src/lists/items/valueCounts.ts, docs/records.md "Counts per text value"), for the values
 * each holding at least a thousandth of the list when counted: an equality's total on one of
 * them is its count brought forward over the writes since (the change feed, as a remembered
 * total is). The band counts' twin for text (listBandCounts.ts): written by a count of the
 * list after a read found none or found them too far behind, never by the writes.
 */
export const listValueCounts = pgTable(
  'list_value_counts',
  {
    ...keptCountKey(),
    /** the values counted, ascending: a value is found by a binary search (`width_bucket`) */
    vals: text('vals').array().notNull(),
    /** the records holding each value, in the same order */
    counts: bigint('counts', { mode: 'number' }).array().notNull(),
    ...keptCountSnapshot(),
  },
  (t) => [primaryKey({ name: 'list_value_counts_pkey', columns: [t.ownerId, t.listKey, t.slot] })],
);
