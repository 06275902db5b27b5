import { sql, type SQL } from 'drizzle-orm';
import type { ListSchemaRow, StoredField } from '../../infra/db/schema/listSchemas.js';
import { stringifyJson, type OrderedObject } from '../../shared/orderedJson.js';
import type { SlotColumn } from '../slots.js';
import { recordJsonText, writesRecords } from './recordJson.js';

/*
 * Records written once: an insert stores the record's JSON beside it (`record_json`), the text
 * its answer already holds, with the list's layout it was written for (`record_layout`). A
 * read of the same layout answers the stored text as it is: writing fifty records' JSON was
 * the larger part of a first-time read's Postgres time (docs/records.md, "Records written
 * once").
 *
 * The stored JSON is a function of the record's row and the list's fields alone, so it can
 * only go stale two ways, and both are covered: the fields change (the layout moves on, and
 * reads stop taking the text), or the row changes (every UPDATE of list_items writes it again
 * from the row's new values, updatedRecord, or forgets it, FORGET_STORED_JSON). A release
 * that writes some value differently must forget every stored JSON in a migration
 * (test/integration/storedJson.test.ts pins the writer's output).
 */

/** A record's JSON as an insert stores it, and the layout of the fields it was written with. */
export interface StoredRecord {
  json: string;
  layout: number;
}

/**
 * The record to store with an insert, from the answer presenting it (presentItem, the text
 * itemWriter writes on a read): only for lists whose reads take stored records, those whose
 * records Postgres writes (recordJson.ts) — never a list with a sealed field, whose answer
 * holds the values in the clear.
 */
export function storedRecord(
  list: Pick<ListSchemaRow, 'fields' | 'layout'>,
  item: OrderedObject,
): StoredRecord | undefined {
  if (!writesRecords(list.fields)) return undefined;
  return { json: stringifyJson(item), layout: list.layout };
}

/** The columns an insert names for the stored JSON (after its others). */
export const STORED_JSON_COLUMNS = sql`, record_json, record_layout`;

/** An insert's values for STORED_JSON_COLUMNS: both NULL without a record to store. */
export const storedJsonValues = (stored: StoredRecord | undefined): SQL =>
  sql`, ${stored?.json ?? null}::text, ${stored?.layout ?? null}::int`;

/** What an UPDATE of list_items that does not write the JSON again assigns: it is stale now. */
export const FORGET_STORED_JSON = sql`, record_json = null, record_layout = null`;

/** A record's values after an UPDATE of list_items, as SQL over the updated row (updatedRecord). */
export interface UpdatedValues {
  /** the updated row's alias, e.g. `li` (its id and created_at do not change) */
  row: string;
  data: SQL;
  /** a timestamptz */
  updatedAt: SQL;
  /** the slots the update assigns, each with its new value */
  slots: ReadonlyMap<SlotColumn, SQL>;
}

/**
 * The SET of an UPDATE of list_items: the record's new values, and its JSON written by
 * Postgres from them (recordJson.ts's expression) for the layout the update's guard found its
 * fields in — so an updated record is answered as stored, as an inserted one is, rather than
 * written again by every read until it is next inserted (docs/records.md, "Records written
 * once"). Lists whose records Postgres does not write forget it. `fields` must be the fields
 * the guard compares the list's with.
 *
 * One row sub-select holds the new values and the JSON written from them, so each value is
 * sent and worked out once; racing updates stay whole, as Postgres evaluates the SET again on
 * the row the other one committed.
 */
export function updatedRecord(
  fields: readonly StoredField[],
  values: UpdatedValues,
  layout: SQL,
): SQL {
  const row = sql.raw(values.row);
  const assigned = [...values.slots.keys()];
  const kept = fields.flatMap(({ slot }) =>
    slot && !values.slots.has(slot as SlotColumn) ? [slot as SlotColumn] : [],
  );
  const columns = ['data', 'updated_at', ...assigned].map((column) => sql.identifier(column));
  const text = recordJsonText(fields);
  const json = text === undefined ? sql`null::text, null::int` : sql`${sql.raw(text)}, ${layout}`;
  // the JSON expression names bare columns, which the inner row provides (it shadows the table)
  const inner = [
    sql`${row}.id`,
    sql`${values.data} as data`,
    sql`${row}.created_at`,
    sql`${values.updatedAt} as updated_at`,
    ...assigned.map((slot) => sql`${values.slots.get(slot)} as ${sql.identifier(slot)}`),
    ...kept.map((slot) => sql`${row}.${sql.identifier(slot)}`),
  ];
  return sql`(${sql.join(columns, sql`, `)}, record_json, record_layout) = (
      select ${sql.join(columns, sql`, `)}, ${json}
      from (select ${sql.join(inner, sql`, `)}) as after)`;
}
