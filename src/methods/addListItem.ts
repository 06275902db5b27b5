import { ListItem } from '../openapi/responses/listItemResponses.js';
import { z } from 'zod';
import { idParam } from '../shared/paramTypes.js';
import { addItem } from '../lists/items/addItem.js';
import { dataParam } from '../lists/items/listItemParams.js';
import type { OrderedObject } from '../shared/orderedJson.js';
import { created, defineMethod } from './method.js';

/** addListItem: adds a record to one of the caller's lists. */
export const addListItem = defineMethod({
  name: 'addListItem',
  tag: 'List items',
  summary: 'Add a record',
  description:
    '`data` maps field slugs to values; keys that are not fields are ignored. `422` (`data.<slug>`) for a missing required field or a wrong-type value.',
  example: {
    schema_id: '01927f9c-5d1e-7a3b-9c4d-2e6f8a1b3c5d',
    data: { customer: 'Ada', total: '129.90', paid: false },
  },
  changesData: true,
  writesKeyWithChange: true,
  success: [{ status: 201, description: 'The created record', body: z.object({ data: ListItem }) }],
  params: z.object({
    schema_id: idParam().describe('List ID'),
    data: dataParam().describe("Object: field slug → value in the field type's format"),
  }),
  async handle(params, { caller, deps, keyClaim }) {
    const answer = (item: OrderedObject) => created({ data: item });
    const alsoWrite = keyClaim && ((item: OrderedObject) => keyClaim.statement(answer(item)));
    const item = await addItem({ ...deps.lists, caller, alsoWrite }, params.schema_id, params.data);
    return answer(item);
  },
});
