import { z } from 'zod';
import { idParam } from '../http/paramTypes.js';
import { removeRecord } from '../lists/records/removeRecord.js';
import { defineMethod, noContent } from './method.js';

/** spec 4.10: deletes a record; 204 without a body. */
export const deleteListItem = defineMethod({
  name: 'deleteListItem',
  params: z.object({ item_id: idParam().describe('Record ID') }),
  async handle(params, { caller, deps }) {
    await removeRecord(
      { db: deps.db, cipher: deps.cipher, clock: deps.clock, caller },
      params.item_id,
    );
    return noContent();
  },
});
