import { ListSchema } from '../openapi/responses/listSchemaResponses.js';
import { z } from 'zod';
import { createList, newListParams } from '../lists/schemas/createList.js';
import { createTargetParams } from '../lists/schemas/createTarget.js';
import { presentListSchema } from '../lists/schemas/listSchemaPresenter.js';
import { created, defineMethod } from './method.js';

/**
 * createListSchema. Parameters are validated in createList (lists/schemas/createList.ts), not
 * by the pipeline: whether the bot or project exists is checked against the database
 * and must land in the same 422 as every other failing field (the error rules).
 */
export const createListSchema = defineMethod({
  name: 'createListSchema',
  tag: 'List schemas',
  summary: 'Create a list with 1 to 30 fields',
  description:
    "Give `project_uuid` or `bot_id` (if both, `bot_id` wins). Fields keep the order sent. `403` beyond 5000 lists per project or for another account's bot or project; `422` for a repeated or reserved slug (`fields.N.slug`) or an unknown currency (`fields.N.currency`).",
  example: {
    project_uuid: '0b412d1e-9180-4981-8bc8-96943168a14e',
    name: 'Orders',
    fields: [
      { name: 'Customer', slug: 'customer', type: 'string', is_required: true },
      { name: 'Total', slug: 'total', type: 'money', currency: 'EUR' },
      { name: 'Paid', slug: 'paid', type: 'bool' },
    ],
  },
  changesData: true,
  success: [
    { status: 201, description: 'The created list schema', body: z.object({ data: ListSchema }) },
  ],
  params: z.intersection(createTargetParams, newListParams),
  validatesOwnParams: true,
  async handle(params, { caller, deps }) {
    const list = await createList(deps.db, caller, params, deps.clock());
    return created({ data: presentListSchema(list) });
  },
});
