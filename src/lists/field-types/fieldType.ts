import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import type { JsonInSql } from './jsonInSql.js';

/** A value as kept in `list_items.data` (JSON), after validation and normalisation. */
export type StoredValue = string | number | boolean | Record<string, unknown>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

export const accept = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const reject = (message: string): Parsed<never> => ({ ok: false, message });

/** Filter operators of getListItems, in the spelling clients send. */
export type Operator = '=' | '!=' | '<>' | '<' | '<=' | '>' | '>=' | 'like' | 'not like';

/**
 * How a type's values compare in SQL. The filter compiler picks the column expression
 * and the comparison from this, never from the type's name.
 */
export type SqlKind = 'text' | 'numeric' | 'bool' | 'date' | 'datetime';

/** The family of typed slot columns a type's values are indexed in (src/lists/slots.ts). */
export type SlotFamily = 'text' | 'numeric' | 'time';

export interface FilterSupport {
  kind: SqlKind;
  operators: readonly Operator[];
  /**
   * A filter operand (a plain JSON value, or the text after `operator,`) → the text bound
   * as the query parameter, normalised the way stored values are.
   */
  operand(raw: string | number | boolean): Parsed<string>;
}

/**
 * One list field type: validates input, normalises it for storage, renders it for output
 * (the list item shape), and says how it is filtered and sorted. One file per type, behind registry.ts.
 */
export interface FieldType {
  name: string;
  /** where its values get a typed, indexed column; absent: never indexed (file, image) */
  slotFamily?: SlotFamily;
  /** `data.<slug>` input (JSON, or text from GET/form) → stored value. */
  parse(input: unknown, field: StoredField): Parsed<StoredValue>;
  /** Stored value → the text written to the field's slot column, if it has one. */
  toSlot(stored: StoredValue): string;
  /**
   * The slot column's value → the stored value: the inverse of toSlot, for records whose
   * slotted values live in their slots only (thin documents, docs/records.md). Takes the
   * column as a driver returns it (text, numeric text, a Date, an int8's digits) or as JSON
   * puts it (a number, an ISO string).
   */
  fromSlot(slot: unknown): StoredValue;
  /** Stored value → the value in a record (the list item shape). */
  render(stored: unknown, field: StoredField): unknown;
  /**
   * render and JSON.stringify as Postgres writes them (items/recordJson.ts). Absent (file,
   * image): a list with such a field has its records written in Node.
   */
  json?: JsonInSql;
  /** Absent for types that filters silently skip and order_by refuses (file, image). */
  filter?: FilterSupport;
  /** contact / bot values are IDs that must exist and belong to the caller (addListItem). */
  references?: 'contact' | 'bot';
}

export const ALL_OPERATORS: readonly Operator[] = [
  '=',
  '!=',
  '<>',
  '<',
  '<=',
  '>',
  '>=',
  'like',
  'not like',
];

/** Every operator but the patterns (getListItems table: number, money, date, datetime, ids). */
export const ORDERED_OPERATORS: readonly Operator[] = ['=', '!=', '<>', '<', '<=', '>', '>='];
