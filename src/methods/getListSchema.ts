import { ListSchema } from '../openapi/responses/listSchemaResponses.js';
import { z } from 'zod';
import { idParam } from '../shared/paramTypes.js';
import { requireOwnList } from '../lists/listAccess.js';
import { presentListSchema } from '../lists/schemas/listSchemaPresenter.js';
import { defineMethod, ok } from './method.js';

export const getListSchema = defineMethod({
  name: 'getListSchema',
  tag: 'List schemas',
  summary: 'One list schema',
  description:
    "`404` (with `errors.schema_id`) when the list does not exist or was deleted; `403` for another account's project.",
  example: { schema_id: '01927f9c-5d1e-7a3b-9c4d-2e6f8a1b3c5d' },
  changesData: false,
  success: [{ status: 200, description: 'The list schema', body: z.object({ data: ListSchema }) }],
  params: z.object({ schema_id: idParam() }),
  async handle({ schema_id }, { caller, deps }) {
    const list = await requireOwnList(deps.lists, caller, schema_id);
    return ok({ data: presentListSchema(list) });
  },
});
