import { z } from 'zod';
import type { StoredField } from '../infra/db/schema/listSchemas.js';
import { listsOnTransaction, type ItemContext } from '../lists/context.js';
import { addReferenceFailures, batchError, type BatchFailure } from '../lists/items/batchErrors.js';
import { referenceProblems } from '../lists/items/references.js';
import { validateData, type FieldValues } from '../lists/items/validateData.js';
import { DomainError, ValidationError } from '../shared/domainErrors.js';
import { MAX_BATCH_ITEMS } from '../lists/items/addItems.js';
import { dataParam } from '../lists/items/listItemParams.js';
import { updateItem } from '../lists/items/updateItem.js';
import { updateItems } from '../lists/items/updateItems.js';
import { requireOwnList } from '../lists/listAccess.js';
import { ListItem } from '../openapi/responses/listItemResponses.js';
import { oneOrMany, boolParam, idParam, optionalParam } from '../shared/paramTypes.js';
import { batchOutcome } from './batchOutcome.js';
import { runBatch } from './batchItems.js';
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
    items: oneOrMany(
      z
        .array(z.object({ item_id: idParam(), data: dataParam() }), { error: 'must be an array' })
        .min(1, 'must have at least 1 item')
        .max(MAX_BATCH_ITEMS, `may not have more than ${MAX_BATCH_ITEMS} items`),
    ),
    atomic: optionalParam(boolParam()).describe('All or nothing (default true)'),
  }),
  async handle(params, { caller, deps }) {
    const lists = { ...deps.lists, caller };
    const atomic = params.atomic ?? true;
    const ids = params.items.map((item) => item.item_id);
    if (new Set(ids).size === ids.length) {
      const result = await updateItems(
        lists,
        params.schema_id,
        params.items.map((item) => ({ itemId: item.item_id, data: item.data })),
        atomic,
      );
      return ok({ data: atomic ? result.updated : result.outcomes });
    }
    // A record named twice: its changes apply in turn, each item answered with the record
    // after its own change, as that many updateListItem calls would.
    const list = await requireOwnList(lists, caller, params.schema_id);
    const referenceFailures = await checkBatchReferences(lists, list.fields, params.items);
    const batch = await runBatch(
      'items',
      deps.db,
      params.items,
      atomic,
      (item, index, db) => {
        const failure = referenceFailures.get(index);
        if (failure) throw failure;
        return updateItem(
          db === deps.db ? lists : listsOnTransaction(lists, db),
          item.item_id,
          item.data,
          params.schema_id,
          true,
        );
      },
      (record, index) => ({ index, status: 200, data: record }),
    );
    return ok({ data: atomic ? batch.results : batch.outcomes });
  },
});

/**
 * The contacts and bots of every item, looked up at once (one query per kind for the whole
 * batch): item index → its error. Items whose data does not validate are left to their own
 * update, which answers their 422.
 */
async function checkBatchReferences(
  ctx: ItemContext,
  fields: readonly StoredField[],
  items: readonly { data: Record<string, unknown> }[],
): Promise<Map<number, DomainError>> {
  const valid: { index: number; values: FieldValues }[] = [];
  for (const [index, item] of items.entries()) {
    try {
      valid.push({ index, values: validateData(fields, item.data, 'update') });
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
    }
  }
  const problems = await referenceProblems(
    ctx.db,
    ctx.caller,
    fields,
    valid.map((v) => ({ prefix: 'data', values: v.values })),
  );
  const failed = new Map<number, BatchFailure>();
  addReferenceFailures(problems, valid, failed);
  const failures = new Map<number, DomainError>();
  for (const [index, failure] of failed) failures.set(index, batchError([failure]));
  return failures;
}
