import { isBlank } from '../../shared/paramTypes.js';
import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import { domainErrors } from '../../shared/domainErrors.js';
import { fieldTypeOf } from '../field-types/fieldTypeRegistry.js';
import { DEFAULT_SORT, type Direction, type Sort } from './query.js';

const invalid = (message: string) => domainErrors.invalid('order_by', `The order_by ${message}.`);

/**
 * `order_by` = `<slug>,<direction>` (getListItems): direction `asc` (default) or `desc`, either
 * case; `created_at` and `updated_at` too. Any other slug, an encrypted field (docs/decisions.md),
 * a file or image field, or another direction is a 422 under `order_by`.
 */
export function parseOrderBy(fields: readonly StoredField[], raw: unknown): Sort {
  if (raw === undefined || isBlank(raw)) return DEFAULT_SORT;
  if (typeof raw !== 'string') return fail('must be a string like "slug,asc"');
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length > 2) return fail('must be "<field>,<direction>"');
  const [slug = '', dir = 'asc'] = parts;
  const direction = dir.toLowerCase();
  if (direction !== 'asc' && direction !== 'desc') return fail('direction must be asc or desc');
  if (slug === 'created_at' || slug === 'updated_at') return { by: slug, direction };
  const field = fields.find((f) => f.slug === slug);
  if (!field) return fail('field does not exist in this list');
  const support = fieldTypeOf(field).filter;
  if (field.is_encryptable) return fail('field is encrypted and cannot be sorted');
  if (!support) return fail(`field is a ${field.type} field and cannot be sorted`);
  return { by: 'field', field, kind: support.kind, direction: direction as Direction };
}

function fail(message: string): never {
  throw invalid(message);
}
