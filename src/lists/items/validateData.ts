import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import { domainErrors, type ValidationErrors } from '../../shared/domainErrors.js';
import type { StoredValue } from '../field-types/fieldType.js';
import { fieldTypeOf } from '../field-types/fieldTypeRegistry.js';

/** `add` checks required fields; `update` validates only what was sent (addListItem, updateListItem). */
export type WriteMode = 'add' | 'update';

/** Field slug → normalised value, in list field order, for the fields that get a value. */
export type FieldValues = Map<string, StoredValue>;

/**
 * "Empty" as a form sends it: null, "", [] or {}. On add an empty optional field stays
 * empty; on update empty values are skipped (updateListItem), so a field cannot be cleared.
 */
export function isEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

/**
 * Validates `data` against the list's fields; keys that are not fields are ignored.
 * Every failing field is reported at once under `data.<slug>` (the error rules).
 */
export function validateData(
  fields: readonly StoredField[],
  data: Record<string, unknown>,
  mode: WriteMode,
): FieldValues {
  const values: FieldValues = new Map();
  const problems: ValidationErrors = {};
  for (const field of fields) {
    const key = `data.${field.slug}`;
    const sent = Object.hasOwn(data, field.slug);
    const input = sent ? data[field.slug] : undefined;
    if (isEmptyValue(input)) {
      // Absent on update means "unchanged"; sent empty on update, or missing on add, fails.
      const mustFill = field.is_required && (mode === 'add' || sent);
      if (mustFill) problems[key] = [`The ${key} field is required.`];
      continue;
    }
    const parsed = fieldTypeOf(field).parse(input, field);
    if (parsed.ok) values.set(field.slug, parsed.value);
    else problems[key] = [`The ${key} field ${parsed.message}.`];
  }
  if (Object.keys(problems).length > 0) throw domainErrors.validation(problems);
  return values;
}
