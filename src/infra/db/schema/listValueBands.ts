import { bigint, numeric, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';

/**
 * How many of a list's records hold a value in each band of a number or date slot, kept by
 * triggers on `list_items` in the writing statement's own transaction (migration 0019), so a
 * range's count is the sum of the whole bands on one side of its bound plus the records of the
 * bound's own band, counted in the slot's index (src/lists/items/valueBands.ts,
 * docs/records.md). A band is named by its lowest value: a number's two leading significant
 * digits (`list_number_band`), a date's UTC day (`list_day_band`: its first second since 1970).
 * Postgres and embedded only: a Citus database keeps no bands (docs/scaling.md).
 */
export const listValueBands = pgTable(
  'list_value_bands',
  {
    /** the list's owner (the tenant key) */
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    listKey: bigint('list_key', { mode: 'bigint' }).notNull(),
    /** 1–3: n1–n3, 4–5: d1–d2 (BANDED_SLOTS) */
    slot: smallint('slot').notNull(),
    band: numeric('band').notNull(),
    /** records in the band; 0 once its last one left (the row stays) */
    records: bigint('records', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({
      name: 'list_value_bands_pkey',
      columns: [t.ownerId, t.listKey, t.slot, t.band],
    }),
  ],
);
