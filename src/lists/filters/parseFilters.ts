import { indexKeyed } from '../../shared/indexedArrays.js';
import { isBlank } from '../../shared/paramTypes.js';
import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import { domainErrors, type ValidationErrors } from '../../shared/domainErrors.js';
import type { Operator } from '../field-types/fieldType.js';
import { fieldTypeOf } from '../field-types/fieldTypeRegistry.js';
import { checkPattern, splitOperator } from './operators.js';
import type { Condition } from './query.js';

/** qs turns `filters[0]=…` into an array; an all-digit slug is still a key. */
function asObject(raw: unknown): Record<string, unknown> | undefined {
  if (Array.isArray(raw)) return indexKeyed(raw);
  if (typeof raw === 'object' && raw !== null) return raw as Record<string, unknown>;
  return undefined;
}

type Outcome = { condition: Condition } | { skip: true } | { error: string };

function parseOne(field: StoredField, value: unknown): Outcome {
  const support = fieldTypeOf(field).filter;
  // getListItems: encrypted, file and image fields and null values are skipped. An empty
  // string is null here, as a form or query string sends "no value".
  if (field.is_encryptable || !support || value === null || value === undefined || value === '')
    return { skip: true };
  if (typeof value === 'object') return { error: 'must be a value or "operator,value"' };
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
    return { error: 'must be a value or "operator,value"' };
  let op: Operator = '=';
  let operand: string | number | boolean = value;
  if (typeof value === 'string') ({ op, operand } = splitOperator(value));
  if (!support.operators.includes(op))
    return { error: `cannot use the ${op} operator on a ${field.type} field` };
  if (op === 'like' || op === 'not like') {
    const pattern = checkPattern(String(operand));
    if (!pattern.ok) return { error: pattern.message };
    operand = pattern.pattern;
  }
  const parsed = support.operand(operand);
  if (!parsed.ok) return { error: parsed.message };
  return {
    condition: { field, kind: support.kind, op: op === '<>' ? '!=' : op, operand: parsed.value },
  };
}

/**
 * `filters` → checked conditions (getListItems). Unknown slugs are skipped, so no slug that is
 * not one of the list's fields ever reaches the compiler. Every bad value is reported
 * under `filters.<slug>`; a `filters` that is not an object under `filters`.
 */
export function parseFilters(fields: readonly StoredField[], raw: unknown): Condition[] {
  if (raw === undefined || isBlank(raw)) return [];
  const filters = asObject(raw);
  if (!filters) throw domainErrors.invalid('filters', 'The filters field must be an object.');
  const bySlug = new Map(fields.map((f) => [f.slug, f]));
  const conditions: Condition[] = [];
  const problems: ValidationErrors = {};
  for (const [slug, value] of Object.entries(filters)) {
    const field = bySlug.get(slug);
    if (!field) continue;
    const outcome = parseOne(field, value);
    if ('condition' in outcome) conditions.push(outcome.condition);
    else if ('error' in outcome)
      problems[`filters.${slug}`] = [`The filters.${slug} ${outcome.error}.`];
  }
  if (Object.keys(problems).length > 0) throw domainErrors.validation(problems);
  return conditions;
}
