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
 * from the row's new values, storedJsonAfter, or forgets it, FORGET_STORED_JSON). A release that writes some value differently must forget every stored
 * JSON in a migration (test/integration/storedJson.test.ts pins the writer's output).
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

/** A record's values after an UPDATE, as SQL in that UPDATE's SET (storedJsonAfter). */
export interface UpdatedValues {
  /** the updated row's id, created_at (unchanged), e.g. `li` */
  row: string;
  data: SQL;
  /** a timestamptz */
  updatedAt: SQL;
  /** a slot's value after the update, for each slot the list's fields use */
  slot: (slot: SlotColumn) => SQL;
}

const jsonTextOf = new WeakMap<readonly StoredField[], string | null>();

/**
 * What an UPDATE of list_items assigns beside its own changes: the record's JSON written by
 * Postgres from the values it is given now (recordJson.ts's expression, over a row of those
 * values), for the layout the update's guard found its fields in — so an updated record is
 * answered as stored, as an inserted one is, rather than written again by every read until
 * it is next inserted (docs/records.md, "Records written once"). Lists whose records Postgres
 * does not write forget it. `fields` must be the fields the guard compares the list's with.
 */
export function storedJsonAfter(
  fields: readonly StoredField[],
  values: UpdatedValues,
  layout: SQL,
): SQL {
  let text = jsonTextOf.get(fields);
  if (text === undefined) {
    text = recordJsonText(fields) ?? null;
    jsonTextOf.set(fields, text);
  }
  if (text === null) return FORGET_STORED_JSON;
  const { row } = values;
  // the expression names bare columns, which the inner row provides (it shadows the table)
  const slots = fields.flatMap(({ slot }) =>
    slot ? [sql`, ${values.slot(slot as SlotColumn)} as ${sql.identifier(slot)}`] : [],
  );
  return sql`, record_json = (select ${sql.raw(text)} from (select ${sql.raw(row)}.id,
      ${values.data} as data, ${sql.raw(row)}.created_at, ${values.updatedAt} as updated_at${sql.join(slots)}) as after),
    record_layout = ${layout}`;
}
