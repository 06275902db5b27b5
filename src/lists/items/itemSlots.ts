import { sql, type SQL } from 'drizzle-orm';
import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import { fieldTypeOf } from '../field-types/fieldTypeRegistry.js';
import { utcText } from '../field-types/jsonInSql.js';
import { isSlotColumn, SLOT_COLUMNS, slotSqlType, type SlotColumn } from '../slots.js';
import { pgTextArray } from '../../infra/db/textArray.js';
import type { StoredChanges } from './storedRow.js';

/**
 * Thin documents (docs/records.md): a slotted field's value lives in its slot column only,
 * and `data` keeps the fields without a slot. Every read of a record therefore returns its
 * slot columns too, and a field's stored value is taken from its slot. Records written
 * before kept every value in `data` as well; their slots hold the same values, and a slot
 * found empty falls back to `data`, so they read as they always did.
 */

/** A record's slot columns, as the driver (or the change feed's JSON) gives them. */
export type SlotValues = Partial<Record<SlotColumn, unknown>>;

/** `, t1, t2, …` (of `alias` when given): the slot columns, for a select list or RETURNING. */
export function slotColumnsSql(alias?: string): SQL {
  const of = alias ? `${alias}.` : '';
  return sql.raw(SLOT_COLUMNS.map((c) => `, ${of}${c}`).join(''));
}

/** The slot columns of the row `alias` as one JSON object (the change feed keeps it). */
export function slotsJson(alias: string): SQL {
  return sql.raw(
    `json_build_object(${SLOT_COLUMNS.map((c) => `'${c}', ${alias}.${c}`).join(', ')})`,
  );
}

/**
 * `, json_build_array(…)::text as slot_values`: the slot columns as one text field, for the
 * reads that return many records (a page, an export). Parsing one JSON text costs the
 * service far less than ten typed fields a record (docs/benchmarks.md, "Thin documents"); the
 * values come back as JSON gives them (fromSlot takes both), dates as UTC text.
 */
export function slotArraySql(): SQL {
  return SLOT_ARRAY;
}

/** The expression of slotArraySql, for a select list that writes it under a condition. */
export const SLOT_ARRAY_TEXT = `json_build_array(${SLOT_COLUMNS.map((c) => (slotSqlType(c) === 'timestamptz' ? utcText(c) : c)).join(', ')})::text`;

const SLOT_ARRAY = sql.raw(`, ${SLOT_ARRAY_TEXT} as slot_values`);

/** The slot columns a raw row carries, or undefined when it carries none. */
export function slotsOf(row: Record<string, unknown>): SlotValues | undefined {
  if (typeof row.slot_values === 'string') {
    const values = JSON.parse(row.slot_values) as unknown[];
    // assigned in one order, every record's object has one shape: V8 reads it fast, where
    // Object.fromEntries would build each anew (on every record of every page)
    const slots: SlotValues = {};
    for (let i = 0; i < SLOT_COLUMNS.length; i++) slots[SLOT_COLUMNS[i]!] = values[i];
    return slots;
  }
  let slots: SlotValues | undefined;
  for (const column of SLOT_COLUMNS) {
    if (column in row) (slots ??= {})[column] = row[column];
  }
  return slots;
}

/** A field's stored value in a record: from its slot when the slot holds one, else `data`. */
export function storedValueOf(
  field: StoredField,
  data: Record<string, unknown>,
  slots: SlotValues | undefined,
): unknown {
  if (slots && isSlotColumn(field.slot)) {
    const slot = slots[field.slot];
    if (slot !== null && slot !== undefined) return fieldTypeOf(field).fromSlot(slot);
  }
  return data[field.slug];
}

/** The record's whole stored document: every field's value, wherever it is kept. */
export function storedDocument(
  fields: readonly StoredField[],
  data: Record<string, unknown>,
  slots: SlotValues | undefined,
): Record<string, unknown> {
  if (!slots) return data;
  const document: Record<string, unknown> = { ...data };
  for (const field of fields) {
    const value = storedValueOf(field, data, slots);
    if (value !== undefined) document[field.slug] = value;
  }
  return document;
}

/**
 * An update's new `data`: `current` without the values that now live in slots (a record
 * written before thin documents kept them in both), merged with the values without a slot.
 */
export function keptData(current: SQL, changes: StoredChanges): SQL {
  return sql`(${current} - ${pgTextArray(changes.slotted)}::text[]) || ${JSON.stringify(changes.kept)}::jsonb`;
}
