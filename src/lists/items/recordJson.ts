import { sql, type SQL } from 'drizzle-orm';
import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import { instantJson } from '../field-types/jsonInSql.js';
import { SLOT_COLUMNS } from '../slots.js';
import { SLOT_ARRAY_TEXT, slotArraySql } from './itemSlots.js';
import { fieldTypeOf } from '../field-types/fieldTypeRegistry.js';
import { planOf } from './listItemPresenter.js';
import { BoundedMap } from '../../shared/boundedMap.js';

/**
 * A page's records written as JSON by Postgres, byte for byte what itemWriter
 * (listItemPresenter.ts) writes: each field through its type's `json` (jsonInSql.ts), in
 * field order, then `contact_id` / `bot_id` and the timestamps. A page then comes back as one
 * text a record, placed into the answer as is: no row objects, no field-by-field writing and
 * far less garbage in Node, which were most of a first-time read's server time beyond the
 * socket writes (docs/benchmarks.md, "Records written by Postgres").
 *
 * Where a value is one Postgres cannot be sure to write the same (jsonInSql.ts), the record's
 * JSON is NULL and the page's statement returns that record's columns instead, which Node
 * writes as before. A list with a sealed field, or a field of a type without `json` (file,
 * image), has every record written in Node.
 */

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Whether Postgres writes this list's records: no sealed field, no type without `json`. */
export function writesRecords(fields: readonly StoredField[]): boolean {
  return fields.every((field) => !field.is_encryptable && fieldTypeOf(field).json !== undefined);
}

/** Worked out once for a list's fields (a list read keeps its fields' array). */
const texts = new WeakMap<readonly StoredField[], string | null>();

/** The record's JSON as an SQL expression over a list_items row, or undefined (see above). */
export function recordJsonText(fields: readonly StoredField[]): string | undefined {
  let text = texts.get(fields);
  if (text === undefined) {
    text = writesRecords(fields) ? jsonTextOf(fields) : null;
    texts.set(fields, text);
  }
  return text ?? undefined;
}

function jsonTextOf(fields: readonly StoredField[]): string {
  const pieces = [`'{"id":' || to_json(id)::text`];
  const links: Partial<Record<'contact_id' | 'bot_id', { value: string; empty: string }>> = {};
  for (const { field, type, slot, link } of planOf(fields)) {
    const json = type.json!;
    const slug = literal(field.slug);
    const stored = `(data -> ${slug})`;
    // An empty slot: an empty field, or a record written before thin documents with the value
    // in `data`, which Node writes (NULL). Without a slot, absent or JSON null is empty.
    const value = slot
      ? `case when ${slot} is not null then ${json.slot(slot)} when data ? ${slug} then null else 'null' end`
      : `case when coalesce(jsonb_typeof(${stored}), 'null') = 'null' then 'null' else ${json.data(stored)} end`;
    pieces.push(`${literal(`,${JSON.stringify(field.slug)}:`)} || ${value}`);
    if (link) links[link] = { value, empty: slot ? `${slot} is null` : `${value} = 'null'` };
  }
  // the list's first contact and bot fields, in that order, where they hold a value (where
  // the slot is empty but `data` is not, `value` makes the record NULL)
  for (const link of ['contact_id', 'bot_id'] as const) {
    const written = links[link];
    if (written !== undefined)
      pieces.push(
        `case when ${written.empty} then '' else ${literal(`,"${link}":`)} || ${written.value} end`,
      );
  }
  pieces.push(`',"created_at":' || ${instantJson('created_at')}`);
  pieces.push(`',"updated_at":' || ${instantJson('updated_at')} || '}'`);
  return pieces.join('\n  || ');
}

/** recordJson's two forms, for the layout of the fields they were worked out for. */
interface RecordJsonForms {
  layout: number;
  /** the stored JSON alone: NULL for a record not stored for this layout */
  stored: SQL;
  /** the stored JSON, else written now from the row */
  written: SQL;
}

const forms = new WeakMap<readonly StoredField[], RecordJsonForms | null>();

function formsOf(list: { fields: readonly StoredField[]; layout: number }) {
  let known = forms.get(list.fields);
  if (known === undefined || (known !== null && known.layout !== list.layout)) {
    const text = recordJsonText(list.fields);
    const layout = Math.trunc(list.layout);
    known =
      text === undefined
        ? null
        : {
            layout: list.layout,
            stored: sql.raw(`case when record_layout = ${layout} then record_json end`),
            written: sql.raw(
              `case when record_layout = ${layout} then record_json else ${text} end`,
            ),
          };
    forms.set(list.fields, known);
  }
  return known ?? undefined;
}

/**
 * The lists a page of which came back with records the stored form left to Node, each with
 * the layout it was read in (noteUnstoredRecords). By list id, not by the list's row: most
 * reads fetch the row afresh.
 */
const unstoredLayouts = new BoundedMap<string, number>(5000);

/** A list as recordJson reads it. */
export interface RecordJsonList {
  id: string;
  fields: readonly StoredField[];
  layout: number;
}

/**
 * The record's JSON for a page, for lists whose records Postgres can write, else undefined:
 * the JSON stored with the record when it was written for this layout of the list
 * (storedJson.ts); once a page of the list held a record without it, also written now for
 * such records (noteUnstoredRecords).
 *
 * Why two forms: the writing expression is a few hundred nodes that Postgres parses, plans
 * and readies on every execution of an unnamed statement even when no row takes it — at 100k
 * records a combined filter's first-time read spent ~0.6 ms planning and ~0.35 ms readying it
 * of ~2.5 ms in Postgres (docs/records.md, "Records written once"). A list whose records are
 * all stored for its layout, as a list is until its fields change, never needs it; a list
 * that does is answered rightly either way (Node writes what the stored form leaves) and is
 * read with the writing form from its next page on, for as long as this process remembers it
 * (the last 5,000 such lists).
 */
export function recordJson(list: RecordJsonList): SQL | undefined {
  const known = formsOf(list);
  return known && (unstoredLayouts.get(list.id) === list.layout ? known.written : known.stored);
}

/**
 * recordJson's writing form whatever the list's pages held: for a read of many pages (the
 * lists export), where one more expression to plan is little.
 */
export function writtenRecordJson(list: {
  fields: readonly StoredField[];
  layout: number;
}): SQL | undefined {
  return formsOf(list)?.written;
}

/**
 * Tells recordJson that a page read with its stored form came back with records it left to
 * Node (rows without `json`), so the list's next pages are read with the writing form.
 */
export function noteUnstoredRecords(list: RecordJsonList, rows: readonly object[]): void {
  if (
    formsOf(list) &&
    unstoredLayouts.get(list.id) !== list.layout &&
    rows.some((row) => !('json' in row))
  )
    unstoredLayouts.set(list.id, list.layout);
}

const SLOT_LIST = sql.raw(SLOT_COLUMNS.join(', '));

/**
 * What a page's statement selects of each record from list_items: the columns Node writes it
 * from, and with `record` (recordJson) the slots themselves and the JSON, which
 * writtenRecords then narrows.
 */
export function recordColumns(record: SQL | undefined): SQL {
  return record
    ? sql`id, data, created_at, updated_at, ${SLOT_LIST}, ${record} as json`
    : sql`id, data, created_at, updated_at${slotArraySql()}`;
}

/**
 * The records `inner` selects (recordColumns, plus `extra` columns), answered as their JSON
 * where Postgres wrote it and as their columns only where it did not. `inner` must not be
 * merged into this statement (it has an ORDER BY, a LIMIT or an OFFSET): merged, each use of
 * `json` below would write the record again. Its order is kept.
 */
export function writtenRecords(inner: SQL, record: SQL | undefined, extra = ''): SQL {
  if (!record) return inner;
  const unless = (column: string) => `case when json is null then ${column} end`;
  return sql`select id, json, ${sql.raw(
    [
      `${unless('data')} as data`,
      `${unless('created_at')} as created_at`,
      `${unless('updated_at')} as updated_at`,
      `${unless(SLOT_ARRAY_TEXT)} as slot_values`,
    ].join(', '),
  )}${sql.raw(extra)} from (${inner}) as written`;
}
