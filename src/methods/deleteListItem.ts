import { z } from 'zod';
import { idParam } from '../shared/paramTypes.js';
import { deleteItem } from '../lists/items/deleteItem.js';
import { defineMethod, noContent } from './method.js';

/** deleteListItem: deletes a record; 204 without a body. */
export const deleteListItem = defineMethod({
  name: 'deleteListItem',
  tag: 'List items',
  summary: 'Delete a record',
  description: '`404` when already deleted.',
  example: { item_id: '01927fa0-1b2c-7d3e-8f40-5a6b7c8d9e0f' },
  changesData: true,
  success: [{ status: 204, description: 'Deleted' }],
  params: z.object({ item_id: idParam().describe('Record ID') }),
  async handle(params, { caller, deps }) {
    await deleteItem({ ...deps.lists, caller }, params.item_id);
    return noContent();
  },
});
