import { z } from 'zod';
import { listsOnTransaction } from '../lists/context.js';
import { MAX_BATCH_ITEMS } from '../lists/items/addItems.js';
import { deleteItem } from '../lists/items/deleteItem.js';
import { requireOwnList } from '../lists/listAccess.js';
import { oneOrMany, boolParam, idParam, optionalParam } from '../shared/paramTypes.js';
import { batchOutcome } from './batchOutcome.js';
import { runBatch } from './batchItems.js';
import { defineMethod, noContent, ok } from './method.js';

/** deleteListItems: up to 1000 records of one list deleted in one request. */
export const deleteListItems = defineMethod({
  name: 'deleteListItems',
  tag: 'List items',
  summary: 'Delete up to 1000 records of a list at once',
  description: [
    'Every id must be a record of `schema_id` (else `items.<index>.item_id` is not found). The batch counts as one request for the rate limit.',
    '',
    '- `atomic` true (the default): one transaction; a missing record answers `422` for the whole batch and nothing is deleted; else `204`.',
    '- `atomic` false: each id on its own; `200` with one outcome per id: `{index, status: 204}` or `{index, status: 422, errors}`.',
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
    item_ids: oneOrMany(
      z
        .array(idParam(), { error: 'must be an array' })
        .min(1, 'must have at least 1 item')
        .max(MAX_BATCH_ITEMS, `may not have more than ${MAX_BATCH_ITEMS} items`),
    ),
    atomic: optionalParam(boolParam()).describe('All or nothing (default true)'),
  }),
  async handle(params, { caller, deps }) {
    const lists = { ...deps.lists, caller };
    await requireOwnList(lists, caller, params.schema_id);
    const atomic = params.atomic ?? true;
    const batch = await runBatch(
      'items',
      deps.db,
      params.item_ids,
      atomic,
      (itemId, _index, db) =>
        deleteItem(
          db === deps.db ? lists : listsOnTransaction(lists, db),
          itemId,
          params.schema_id,
        ),
      (_done, index) => ({ index, status: 204 }),
    );
    return atomic ? noContent() : ok({ data: batch.outcomes });
  },
});
