import { parseFilters } from '../../src/lists/filters/parseFilters.js';
import { parseOrderBy } from '../../src/lists/filters/parseOrderBy.js';
import type { ItemQuery } from '../../src/lists/filters/query.js';
import type { StoredField } from '../../src/infra/db/schema/listSchemas.js';
import { storedField } from './storedField.js';

/** A stored field, in the slot given (none: kept in the JSONB document). */
export const slottedField = (slug: string, type: string, slot?: string) =>
  storedField(slug, type, slot ? { slot } : {});

/** getListItems' parsed query on these fields, as the unit tests of its planning build it. */
export function itemQueryOn(
  fields: readonly StoredField[],
  filters: Record<string, string>,
  orderBy: string | undefined,
  links: ItemQuery['links'] = {},
): ItemQuery {
  return {
    ownerId: 1,
    listId: 'l',
    fields,
    conditions: parseFilters(fields, filters),
    links,
    sort: parseOrderBy(fields, orderBy),
  };
}
