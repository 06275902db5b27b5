import { bigint, numeric, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { keptCountKey, keptCountSnapshot } from './keptCountColumns.js';

/**
 * A list's records counted per band of one number or date slot's values, as one snapshot saw
 * them (src/lists/items/bandCounts.ts, docs/records.md "Counts per value band"): a range's
 * total is then the records of the whole bands on one side of its bound as counted, brought
 * forward over the writes since (the change feed, as a remembered total is), plus the records
 * of the bound's own band counted now. Written by a count of the list after a read found none
 * or found it too far behind; never by the writes. A band is named by its lowest value: a
 * number's two leading significant digits (`list_number_band`), a date's UTC day
 * (`list_day_band`: its first second since 1970; migration 0019).
 */
export const listBandCounts = pgTable(
  'list_band_counts',
  {
    ...keptCountKey(),
    /** the bands that hold records, ascending */
    bands: numeric('bands').array().notNull(),
    /**
     * the records of the bands up to each, in the same order (running totals): the records
     * below a bound are one element, found by a binary search of `bands` (`width_bucket`)
     */
    cumulative: bigint('cumulative', { mode: 'number' }).array().notNull(),
    ...keptCountSnapshot(),
  },
  (t) => [primaryKey({ name: 'list_band_counts_pkey', columns: [t.ownerId, t.listKey, t.slot] })],
);
