import { sql, type SQL } from 'drizzle-orm';
import type { ListSchemaRow } from '../../infra/db/schema/listSchemas.js';
import { stringifyJson, type OrderedObject } from '../../shared/orderedJson.js';
import { writesRecords } from './recordJson.js';

/*
 * Records written once: an insert stores the record's JSON beside it (`record_json`), the text
 * its answer already holds, with the list's layout it was written for (`record_layout`). A
 * read of the same layout answers the stored text as it is: writing fifty records' JSON was
 * the larger part of a first-time read's Postgres time (docs/records.md, "Records written
 * once").
 *
 * The stored JSON is a function of the record's row and the list's fields alone, so it can
 * only go stale two ways, and both are covered: the fields change (the layout moves on, and
 * reads stop taking the text), or the row changes (every UPDATE of list_items forgets it,
 * FORGET_STORED_JSON). A release that writes some value differently must forget every stored
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

/** What every UPDATE of list_items assigns beside its own changes: the JSON is stale now. */
export const FORGET_STORED_JSON = sql`, record_json = null, record_layout = null`;
