import { z } from 'zod';
import { indexKeyed, isFromText } from './indexedArrays.js';

/**
 * Parameter types shared by the methods. GET and form values arrive as text, so integers
 * and booleans are also accepted in their text forms ("2", "true", "1").
 */
const INTEGER_TEXT = /^-?\d{1,16}$/;

/** The bounds of an integer parameter and the 422 text for a value outside them. */
export interface IntRange {
  min: number;
  max: number;
  message: string;
}

/**
 * An integer, from a JSON number or its decimal text. The bounds are zod's own checks, so the
 * OpenAPI document states them (`minimum` / `maximum`); without a range, any safe integer.
 */
export const intParam = (range?: IntRange) => {
  const integer = z
    .number({ error: 'must be an integer' })
    .int({ error: 'must be an integer', abort: true });
  return z.preprocess(
    (v) => (typeof v === 'string' && INTEGER_TEXT.test(v.trim()) ? Number(v.trim()) : v),
    range
      ? integer.min(range.min, { error: range.message }).max(range.max, { error: range.message })
      : integer.safe('is out of range'),
  );
};

/**
 * The one blank rule of every method: null, or text that is empty or only whitespace, means
 * "not sent" (a form or a query string cannot leave a field out any other way), so an
 * optional parameter takes its default and a required one is missing.
 */
export function isBlank(v: unknown): boolean {
  return v === null || (typeof v === 'string' && v.trim() === '');
}

export const blankToUndefined = (v: unknown): unknown => (isBlank(v) ? undefined : v);

/** The blank values of `isBlank` in JSON Schema, for the OpenAPI document. */
export const BLANK_TEXT_PATTERN = '^\\s*$';
export const BLANK_JSON_SCHEMAS: Record<string, unknown>[] = [
  { type: 'null' },
  { type: 'string', pattern: BLANK_TEXT_PATTERN },
];

/** JSON Schema of "`param` is sent": present with a value that is not blank. */
export const sentJsonSchema = (param: string) => ({
  required: [param],
  properties: { [param]: { not: { anyOf: BLANK_JSON_SCHEMAS } } },
});

/** Marks a parameter whose blank value means "not sent", for the OpenAPI document. */
export const BLANK_IS_UNSENT = 'x-blank-is-unsent';

/**
 * Rules across parameters that a refinement enforces (one of two required, one required when
 * another has a value), written as JSON Schema beside the refinement for the OpenAPI document.
 */
export const SCHEMA_RULES = 'x-schema-rules';

/**
 * Parameters of an object that are ignored, whatever their value, when a condition holds
 * (getContacts' `page` and `count` in offset mode): `{ when: <JSON Schema>, properties: [...] }`.
 * The document then states their rules only for when the condition does not hold.
 */
export const IGNORED_WHEN = 'x-ignored-when';

/**
 * The JSON Schema of a parameter whose value the handler checks against the list (filters,
 * order_by): merged into what the document says of it.
 */
export const DOCUMENTED_AS = 'x-documented-as';

/** Marks an object parameter that also takes an array, read as keyed by index, for the document. */
export const ARRAY_AS_INDEXED = 'x-array-as-indexed';

/** Marks an array parameter that also takes one value alone, for the OpenAPI document. */
export const SINGLE_AS_ARRAY = 'x-single-as-array';

/**
 * An array parameter that also takes one value alone: `item_ids=a` in a query string is the
 * list `["a"]`, and `fields[name]=…` (no index) a list of one field, as `fields[0][name]=…` is.
 * Where the items are objects (`objectItems`), plain values in brackets can only be one
 * item's keys: `items[6]=x` is the one item `{"6": "x"}`, as an all-digit slug needs (in a
 * JSON body an array of plain values stays what it is, and is refused item by item).
 */
export const oneOrMany = <T extends z.ZodType>(array: T, { objectItems = false } = {}) =>
  z
    .preprocess((v) => {
      if (v === undefined || v === null) return v;
      if (!Array.isArray(v)) return [v];
      return objectItems && isFromText(v) && v.every(isPlainValue) ? [indexKeyed(v)] : v;
    }, array)
    .meta({ [SINGLE_AS_ARRAY]: true });

const isPlainValue = (v: unknown) => typeof v !== 'object' || v === null;

/**
 * A batch method's items: 1 to `max` of `item`, an item sent alone counting as one (objects:
 * `objectItems` as in oneOrMany).
 */
export const batchParam = <T extends z.ZodType>(
  item: T,
  max: number,
  { objectItems = false } = {},
) =>
  oneOrMany(
    z
      .array(item, { error: 'must be an array' })
      .min(1, 'must have at least 1 item')
      .max(max, `may not have more than ${max} items`),
    { objectItems },
  );

/** `schema`, or "not sent" for a blank value. */
export const optionalParam = <T extends z.ZodType>(schema: T) =>
  z.preprocess(blankToUndefined, schema.optional()).meta({ [BLANK_IS_UNSENT]: true });

/** An optional integer from `min` to `max`; `message` is the 422 text outside the range. */
export const optionalInt = (min: number, max: number, message: string) =>
  optionalParam(intParam({ min, max, message }));

const TRUE_FORMS = new Set<unknown>([true, 'true', '1', 1]);
const FALSE_FORMS = new Set<unknown>([false, 'false', '0', 0]);

/** The boolean a parameter or a field value means (`true`, `"true"`, `1`, `"1"` and the false forms), else undefined. */
export function booleanFrom(v: unknown): boolean | undefined {
  return TRUE_FORMS.has(v) ? true : FALSE_FORMS.has(v) ? false : undefined;
}

export const boolParam = () =>
  z.preprocess((v) => booleanFrom(v) ?? v, z.boolean({ error: 'must be true or false' }));

/** A required identifier given as text (list and record ids). */
/** A batch method's `atomic`: all or nothing unless false. */
export const atomicParam = () =>
  optionalParam(boolParam()).describe('All or nothing (default true)');

export const idParam = () =>
  z.string({ error: 'must be a string' }).min(1, 'is required').max(255, 'is too long');

export const textParam = (max = 255) =>
  z.string({ error: 'must be a string' }).max(max, `may not be greater than ${max} characters`);
