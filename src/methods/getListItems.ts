import { ListItem } from '../openapi/responses/listItemResponses.js';
import { pageOf } from '../openapi/responses/pagingResponses.js';
import { z } from 'zod';
import { ALL_OPERATORS } from '../lists/field-types/fieldType.js';
import { SLUG_PATTERN } from '../lists/schemas/reservedSlugs.js';
import {
  ARRAY_AS_INDEXED,
  BLANK_IS_UNSENT,
  DOCUMENTED_AS,
  idParam,
  optionalInt,
} from '../shared/paramTypes.js';
import { queryItems } from '../lists/items/queryItems.js';
import { defineMethod, ok } from './method.js';

const MAX_ID = Number.MAX_SAFE_INTEGER;

/** What parseOrderBy accepts: a slug (or a timestamp), then a direction in either case. */
const ORDER_BY_SCHEMA = {
  type: 'string',
  pattern: `^\\s*${SLUG_PATTERN.source.replace(/^\^|\$$/g, '')}\\s*(,\\s*([aA][sS][cC]|[dD][eE][sS][cC])\\s*)?$`,
};

/** What parseFilters reads: slug → a plain value or `"<operator>,<value>"`. */
const FILTERS_SCHEMA = {
  type: 'object',
  additionalProperties: {
    anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }],
  },
};

/**
 * getListItems: a page of a list's records. `filters` and `order_by` are checked against the
 * list's fields (they depend on it), so they pass through here unparsed.
 */
export const getListItems = defineMethod({
  name: 'getListItems',
  tag: 'List items',
  summary: 'Records of a list, filtered, sorted and paged',
  description: [
    'Set `order_by` (`<slug>,asc|desc`, also `created_at`, `updated_at`) when paging: without it the order is undefined.',
    '',
    '`filters` maps a field slug to a plain value (equality) or to `"<operator>,<value>"` with operators `=`, `!=`, `<>`, `<`, `<=`, `>`, `>=`, `like`, `not like`. In a query string: `filters[price]=>=,10`. Conditions are combined with AND; a condition on an unknown, encrypted, file or image field, or with a null value, is skipped.',
  ].join('\n'),
  example: {
    schema_id: '01927f9c-5d1e-7a3b-9c4d-2e6f8a1b3c5d',
    filters: { paid: true, total: '>=,100' },
    order_by: 'total,desc',
    limit: 20,
  },
  changesData: false,
  success: [{ status: 200, description: 'A page of records', body: pageOf(ListItem) }],
  params: z.object({
    schema_id: idParam().describe('List ID'),
    limit: optionalInt(1, 1000, 'must be between 1 and 1000').describe(
      'Records per page, 1 to 1000 (default 50)',
    ),
    page: optionalInt(1, MAX_ID, 'must be at least 1').describe('Page, from 1 (default 1)'),
    order_by: z
      .unknown()
      .optional()
      .meta({ [DOCUMENTED_AS]: ORDER_BY_SCHEMA, [BLANK_IS_UNSENT]: true })
      .describe('`<slug>,asc|desc`, also `created_at` / `updated_at`; default insertion order'),
    filters: z
      .unknown()
      .optional()
      .meta({
        [DOCUMENTED_AS]: FILTERS_SCHEMA,
        [ARRAY_AS_INDEXED]: true,
        [BLANK_IS_UNSENT]: true,
      })
      .describe(
        `Object: slug → value (equality) or \`"<operator>,<value>"\` with the operators ${ALL_OPERATORS.map((o) => `\`${o}\``).join(', ')}`,
      ),
    contact_id: optionalInt(-MAX_ID, MAX_ID, 'must be an integer').describe(
      'Only records linked to this contact through any contact field',
    ),
    bot_id: optionalInt(-MAX_ID, MAX_ID, 'must be an integer').describe(
      'Only records linked to this bot through any bot field',
    ),
  }),
  async handle(params, { caller, deps }) {
    const page = await queryItems(
      { ...deps.lists, caller },
      {
        schemaId: params.schema_id,
        limit: params.limit ?? 50,
        page: params.page ?? 1,
        orderBy: params.order_by,
        filters: params.filters,
        contactId: params.contact_id,
        botId: params.bot_id,
        path: `${deps.config.baseUrl}/api/v1/getListItems`,
      },
    );
    return ok(page);
  },
});
