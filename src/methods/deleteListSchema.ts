import { z } from 'zod';
import { domainErrors } from '../shared/domainErrors.js';
import { idParam } from '../shared/paramTypes.js';
import { requireOwnList } from '../lists/listAccess.js';
import { softDeleteList } from '../lists/schemas/listSchemaRepository.js';
import { defineMethod, noContent } from './method.js';

/**
 * deleteListSchema. Fast at any list size: the list is marked deleted (its records are
 * unreachable from then on) and the records are removed later by lists/schemas/reclaim.ts.
 */
export const deleteListSchema = defineMethod({
  name: 'deleteListSchema',
  tag: 'List schemas',
  summary: 'Delete a list and its records',
  description: '`404` when already deleted.',
  example: { schema_id: '01927f9c-5d1e-7a3b-9c4d-2e6f8a1b3c5d' },
  changesData: true,
  success: [{ status: 204, description: 'Deleted' }],
  params: z.object({ schema_id: idParam() }),
  async handle({ schema_id }, { caller, deps }) {
    const list = await requireOwnList(deps.lists, caller, schema_id);
    // A concurrent delete may have won since the lookup: then it is gone, as for a second call.
    if (!(await softDeleteList(deps.db, list.ownerId, list.id, deps.clock())))
      throw domainErrors.listNotFound();
    return noContent();
  },
});
