import { z } from 'zod';
import { domainErrors } from '../shared/domainErrors.js';
import { idParam } from '../shared/paramTypes.js';
import { requireOwnList } from '../lists/listAccess.js';
import { ERASE_IN_REQUEST_MS, eraseNowOrLater } from '../lists/schemas/fieldErasure.js';
import { removeField } from '../lists/schemas/fieldRepository.js';
import { defineMethod, noContent } from './method.js';

/**
 * deleteListSchemaField. The field leaves the definition first (invisible at once), then its values
 * are erased from every record in short batches: before the 204 for all but big lists,
 * whose erase continues in the background (lists/schemas/fieldErasure.ts); if the
 * process stops midway, the background loop finishes it (src/maintenanceLoop.ts).
 */
export const deleteListSchemaField = defineMethod({
  name: 'deleteListSchemaField',
  tag: 'List schemas',
  summary: 'Delete a field and erase its values in every record',
  description: 'Irreversible. `422` (key `slug`) when no field has the slug.',
  example: { schema_id: '01927f9c-5d1e-7a3b-9c4d-2e6f8a1b3c5d', slug: 'due' },
  changesData: true,
  success: [{ status: 204, description: 'Field deleted' }],
  params: z.object({ schema_id: idParam(), slug: idParam() }),
  async handle({ schema_id, slug }, { caller, deps, log }) {
    const list = await requireOwnList(deps.lists, caller, schema_id);
    const result = await removeField(deps.db, list.ownerId, list.id, slug, deps.clock());
    if (result.removed === undefined) {
      if (result.reason === 'missing') throw domainErrors.listNotFound();
      throw domainErrors.invalid(
        'slug',
        'The selected slug is invalid: the list has no such field.',
      );
    }
    const erasure = {
      ownerId: list.ownerId,
      schemaId: list.id,
      slug,
      slot: result.removed.slot ?? null,
    };
    await eraseNowOrLater(deps.db, erasure, AbortSignal.timeout(ERASE_IN_REQUEST_MS), log);
    return noContent();
  },
});
