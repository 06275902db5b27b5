import { z } from 'zod';
import { itemOutcomeBodies } from '../http/itemOutcomeBodies.js';
import { MAX_BATCH_ITEMS } from '../lists/items/addItems.js';
import { deleteItems } from '../lists/items/deleteItems.js';
import { atomicParam, batchParam, idParam } from '../shared/paramTypes.js';
import { batchOutcome } from '../openapi/responses/batchResponses.js';
import { defineMethod, noContent, ok } from './method.js';

/** deleteListItems: up to 1000 records of one list deleted in one request. */
export const deleteListItems = defineMethod({
  name: 'deleteListItems',
  tag: 'List items',
  summary: 'Delete up to 1000 records of a list at once',
  description: [
    'Every id must be a record of `schema_id` (else `items.<index>.item_id` is not found; so is an id the batch already named, as a second `deleteListItem` would find the record gone). All records are deleted by one statement, with the list counter and one change event each. The batch counts as one request for the rate limit.',
    '',
    '- `atomic` true (the default): all or nothing — any id not found answers `422` with every such id’s error and nothing is deleted; else `204`.',
    '- `atomic` false: the records found are deleted; `200` with one outcome per id in input order: `{index, status: 204}` or `{index, status: 422, errors}`.',
  ].join('\n'),
  example: {
    schema_id: '01927f9c-5d1e-7a3b-9c4d-2e6f8a1b3c5d',
    item_ids: ['01927fa0-1b2c-7d3e-8f40-5a6b7c8d9e0f'],
  },
  changesData: true,
  success: [
    { status: 204, description: 'All deleted (atomic)' },
    {
      status: 200,
      description: 'One outcome per id (atomic=false)',
      body: z.object({ data: z.array(batchOutcome(z.never())) }),
    },
  ],
  params: z.object({
    schema_id: idParam().describe('List ID'),
    item_ids: batchParam(idParam(), MAX_BATCH_ITEMS),
    atomic: atomicParam(),
  }),
  async handle({ schema_id, item_ids, atomic = true }, { caller, deps }) {
    const outcomes = await deleteItems({ ...deps.lists, caller }, schema_id, item_ids, atomic);
    return atomic
      ? noContent()
      : ok({ data: itemOutcomeBodies(outcomes, () => ({ status: 204 })) });
  },
});
