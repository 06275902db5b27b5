import { z } from 'zod';
import { itemOutcomeBodies } from '../http/itemOutcomeBodies.js';
import { addItems, MAX_BATCH_ITEMS } from '../lists/items/addItems.js';
import { dataParam } from '../lists/items/listItemParams.js';
import { ListItem } from '../openapi/responses/listItemResponses.js';
import { atomicParam, batchParam, idParam } from '../shared/paramTypes.js';
import { batchOutcome } from '../openapi/responses/batchResponses.js';
import { created, defineMethod, ok } from './method.js';

/** addListItems: up to 1000 records into one list in one request and one insert. */
export const addListItems = defineMethod({
  name: 'addListItems',
  tag: 'List items',
  summary: 'Add up to 1000 records to a list at once',
  description: [
    'Each item is validated as `addListItem` validates `data`; errors are keyed `items.<index>.<slug>`. The contact and bot values of the whole batch are checked together, and all records are written by one insert, in one transaction with the list counter. The batch counts as one request for the rate limit.',
    '',
    '- `atomic` true (the default): all or nothing — any failing item answers `422` with every error (or `403` for another account’s contact or bot) and nothing is written; else `201` with the records in input order.',
    '- `atomic` false: the valid items are written and the answer is `200` with one outcome per item in input order: `{index, status: 201, data}` or `{index, status: 422, errors}` / `{index, status: 403, message}`.',
    '',
    'A query string or form body holds at most 200 items (the parameter limits); send larger batches as JSON.',
  ].join('\n'),
  example: {
    schema_id: '01927f9c-5d1e-7a3b-9c4d-2e6f8a1b3c5d',
    items: [
      { customer: 'Ada', total: '129.90' },
      { customer: 'Grace', total: '42.00', paid: true },
    ],
  },
  changesData: true,
  success: [
    {
      status: 201,
      description: 'All records created (atomic)',
      body: z.object({ data: z.array(ListItem) }),
    },
    {
      status: 200,
      description: 'One outcome per item (atomic=false)',
      body: z.object({ data: z.array(batchOutcome(ListItem)) }),
    },
  ],
  params: z.object({
    schema_id: idParam().describe('List ID'),
    items: batchParam(dataParam(), MAX_BATCH_ITEMS, { objectItems: true }).describe(
      "Each item: field slug → value in the field type's format",
    ),
    atomic: atomicParam(),
  }),
  async handle({ schema_id, items, atomic = true }, { caller, deps }) {
    const result = await addItems({ ...deps.lists, caller }, schema_id, items, atomic);
    if (atomic) return created({ data: result.created });
    return ok({
      data: itemOutcomeBodies(result.outcomes, (item) => ({ status: 201, data: item })),
    });
  },
});
