import { sql, type SQL } from 'drizzle-orm';
import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import { SLOT_COLUMNS, slotSqlType, type SlotColumn } from '../slots.js';
import { recordJsonText } from './recordJson.js';

/*
 * Records written once: an insert stores the record's JSON beside it (`record_json`), written
 * by the very expression a read would run (recordJson.ts), with the list's layout it was
 * written for (`record_layout`). A read of the same layout answers the stored text as it is:
 * writing fifty records' JSON was the larger part of a first-time read's Postgres time
 * (docs/records.md, "Records written once").
 *
 * The stored JSON is a function of the record's row and the list's fields alone, so it can
 * only go stale two ways, and both are covered: the fields change (the layout moves on, and
 * reads stop taking the text), or the row changes (every UPDATE of list_items forgets it,
 * FORGET_STORED_JSON). A release that writes some value differently must forget every stored
 * JSON in a migration (test/integration/storedJson.test.ts pins the writer's text).
 */

/** The columns an insert names for the stored JSON (after its others). */
export const STORED_JSON_COLUMNS = sql`, record_json, record_layout`;

/** What every UPDATE of list_items assigns beside its own changes: the JSON is stale now. */
export const FORGET_STORED_JSON = sql`, record_json = null, record_layout = null`;

/** A record being inserted, as SQL values of its columns (a slot not named is NULL). */
export interface InsertedRecord {
  id: SQL;
  data: SQL;
  /** created_at and updated_at, equal on an insert */
  stamp: SQL;
  slot: (slot: SlotColumn) => SQL | undefined;
}

/**
 * The stored JSON's values for STORED_JSON_COLUMNS: the record's JSON written over its own
 * values, and `layout`, the layout of `fields`. Both NULL where Postgres does not write the
 * list's records (recordJson.ts): reads then write them as before.
 */
export function storedJsonValues(
  fields: readonly StoredField[],
  record: InsertedRecord,
  layout: SQL,
): SQL {
  const text = recordJsonText(fields);
  if (text === undefined) return sql`, null::text, null::int`;
  const slots = SLOT_COLUMNS.map(
    (slot) =>
      sql`, ${record.slot(slot) ?? sql`null`}::${sql.raw(slotSqlType(slot))} as ${sql.identifier(slot)}`,
  );
  // the expression names the row's columns: a row of its own with those names, so that no
  // other table of the insert's statement (the list's row has `id` too) is in its sight
  return sql`, (select ${sql.raw(text)} from (select ${record.id}::text as id,
      ${record.data}::jsonb as data, ${record.stamp}::timestamptz as created_at,
      ${record.stamp}::timestamptz as updated_at${sql.join(slots)}) as list_items), ${layout}`;
}
