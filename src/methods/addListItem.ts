import { z } from 'zod';
import { idParam } from '../shared/paramTypes.js';
import { addItem } from '../lists/items/addItem.js';
import { dataParam } from '../lists/items/params.js';
import { created, defineMethod } from './method.js';

/** spec 4.8: adds a record to one of the caller's lists. */
export const addListItem = defineMethod({
  name: 'addListItem',
  params: z.object({
    schema_id: idParam().describe('List ID'),
    data: dataParam().describe("Object: field slug → value in the field type's format"),
  }),
  async handle(params, { caller, deps }) {
    const record = await addItem(
      { db: deps.db, cipher: deps.cipher, clock: deps.clock, caller },
      params.schema_id,
      params.data,
    );
    return created({ data: record });
  },
});
