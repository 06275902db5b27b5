import { z } from 'zod';
import { itemOutcomeBodies } from '../http/itemOutcomeBodies.js';
import { MAX_BATCH_ITEMS } from '../lists/items/addItems.js';
import { dataParam } from '../lists/items/listItemParams.js';
import { updateBatch } from '../lists/items/updateBatch.js';
import { ListItem } from '../openapi/responses/listItemResponses.js';
import { atomicParam, batchParam, idParam } from '../shared/paramTypes.js';
import { batchOutcome } from '../openapi/responses/batchResponses.js';
import { defineMethod, ok } from './method.js';

/** updateListItems: up to 1000 records of one list changed in one request. */
export const updateListItems = defineMethod({
  name: 'updateListItems',
  tag: 'List items',
  summary: 'Change up to 1000 records of a list at once',
  description: [
    'Each item is `{item_id, data}` and is applied as `updateListItem` applies one; every record must belong to `schema_id` (else `items.<index>.item_id` is not found). Errors are keyed `items.<index>.<slug>`. The records are looked up together, the contact and bot values of the whole batch are checked together, and all changes are written by one statement with the list’s version. An item that changes nothing is answered as stored, without a write or a change event. The batch counts as one request for the rate limit.',
    '',
    '- `atomic` true (the default): all or nothing — any failing item answers `422` with every error (or `403` for another account’s contact or bot) and nothing is changed; else `200` with the records after the change, in input order.',
    '- `atomic` false: the valid items are written; `200` with one outcome per item in input order: `{index, status: 200, data}`, `{index, status: 422, errors}` or `{index, status: 403, message}`.',
    '',
    'A batch that names one record more than once is applied item by item, in order: each item answers the record after its own change, and an all-or-nothing batch answers the first failing item’s error.',
  ].join('\n'),
  example: {
    schema_id: '01927f9c-5d1e-7a3b-9c4d-2e6f8a1b3c5d',
    items: [{ item_id: '01927fa0-1b2c-7d3e-8f40-5a6b7c8d9e0f', data: { paid: true } }],
  },
  changesData: true,
  success: [
    {
      status: 200,
      description: 'The records after the change (atomic), or one outcome per item',
      body: z.object({ data: z.array(z.union([ListItem, batchOutcome(ListItem)])) }),
    },
  ],
  params: z.object({
    schema_id: idParam().describe('List ID'),
    items: batchParam(z.object({ item_id: idParam(), data: dataParam() }), MAX_BATCH_ITEMS, {
      objectItems: true,
    }),
    atomic: atomicParam(),
  }),
  async handle({ schema_id, items, atomic = true }, { caller, deps }) {
    const changes = items.map((item) => ({ itemId: item.item_id, data: item.data }));
    const result = await updateBatch({ ...deps.lists, caller }, schema_id, changes, atomic);
    if (atomic) return ok({ data: result.updated });
    return ok({
      data: itemOutcomeBodies(result.outcomes, (item) => ({ status: 200, data: item })),
    });
  },
});
