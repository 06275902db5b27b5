import { ListSchema } from '../openapi/responses/listSchemaResponses.js';
import { pageOf } from '../openapi/responses/pagingResponses.js';
import { z } from 'zod';
import { BLANK_IS_UNSENT, blankToUndefined, intParam } from '../shared/paramTypes.js';
import { pageEnvelope, pageOffset } from '../shared/paging.js';
import { presentListSchema } from '../lists/schemas/listSchemaPresenter.js';
import { pageOwnedLists } from '../lists/schemas/listSchemaRepository.js';
import { defineMethod, ok } from './method.js';

/** A fixed page size. */
const PER_PAGE = 50;

export const getListSchemas = defineMethod({
  name: 'getListSchemas',
  tag: 'List schemas',
  summary: 'Lists of every project the key holder owns, 50 per page',
  description: 'The page size is fixed at 50.',
  example: { page: 1 },
  changesData: false,
  success: [{ status: 200, description: 'A page of list schemas', body: pageOf(ListSchema) }],
  params: z.object({
    // A blank value is "not sent" (page 1); anything else must be an integer ≥ 1.
    page: z
      .preprocess(
        blankToUndefined,
        intParam({ min: 1, max: Number.MAX_SAFE_INTEGER, message: 'must be at least 1' }).default(
          1,
        ),
      )
      .meta({ [BLANK_IS_UNSENT]: true }),
  }),
  async handle({ page }, { caller, deps }) {
    const { rows, total } = await pageOwnedLists(deps.db, caller.accountId, {
      offset: pageOffset(page, PER_PAGE),
      limit: PER_PAGE,
    });
    return ok(
      pageEnvelope({
        items: rows.map(presentListSchema),
        total,
        page,
        perPage: PER_PAGE,
        path: `${deps.config.baseUrl}/api/v1/getListSchemas`,
      }),
    );
  },
});
