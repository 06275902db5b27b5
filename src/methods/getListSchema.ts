import { z } from 'zod';
import { idParam } from '../shared/paramTypes.js';
import { requireOwnList } from '../lists/listAccess.js';
import { presentListSchema } from '../lists/schemas/presenter.js';
import { defineMethod, ok } from './method.js';

/** spec 4.2 */
export const getListSchema = defineMethod({
  name: 'getListSchema',
  params: z.object({ schema_id: idParam() }),
  async handle({ schema_id }, { caller, deps }) {
    const list = await requireOwnList(deps.db, caller, schema_id);
    return ok({ data: presentListSchema(list) });
  },
});
