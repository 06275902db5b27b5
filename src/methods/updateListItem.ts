import { ListItem } from '../openapi/responses/listItemResponses.js';
import { z } from 'zod';
import { idParam } from '../shared/paramTypes.js';
import { dataParam } from '../lists/items/listItemParams.js';
import { updateItem } from '../lists/items/updateItem.js';
import { defineMethod, ok } from './method.js';

/** updateListItem: changes the sent fields of a record; answers the whole record. */
export const updateListItem = defineMethod({
  name: 'updateListItem',
  tag: 'List items',
  summary: 'Change some fields of a record',
  description:
    'Fields absent from `data` are unchanged; null and empty values are skipped (a field cannot be cleared). `404` with `errors.item_id` when the record or its list is gone.',
  example: { item_id: '01927fa0-1b2c-7d3e-8f40-5a6b7c8d9e0f', data: { paid: true } },
  changesData: true,
  success: [
    {
      status: 200,
      description: 'The whole record after the change',
      body: z.object({ data: ListItem }),
    },
  ],
  params: z.object({
    item_id: idParam().describe('Record ID'),
    data: dataParam().describe("Object: field slug → value in the field type's format"),
  }),
  async handle(params, { caller, deps }) {
    const record = await updateItem({ ...deps.lists, caller }, params.item_id, params.data);
    return ok({ data: record });
  },
});
