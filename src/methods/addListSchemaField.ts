import { addField, addFieldParams } from '../lists/schemas/addField.js';
import { defineMethod, noContent } from './method.js';

/**
 * addListSchemaField. Parameters are validated in addField (lists/schemas/addField.ts), not by the
 * pipeline: a slug already in the list is found in the database and must land in the
 * same 422 as every other failing field (the error rules).
 */
export const addListSchemaField = defineMethod({
  name: 'addListSchemaField',
  tag: 'List schemas',
  summary: 'Add a field at the end of a list',
  description:
    'Existing records do not change. `422` when the slug exists (`field.slug`) or a `money` field lacks a known currency (`field.currency`).',
  example: {
    schema_id: '01927f9c-5d1e-7a3b-9c4d-2e6f8a1b3c5d',
    field: { name: 'Due', slug: 'due', type: 'date' },
  },
  changesData: true,
  success: [{ status: 204, description: 'Field added' }],
  params: addFieldParams,
  validatesOwnParams: true,
  async handle(params, { caller, deps }) {
    await addField(deps.lists, caller, params);
    return noContent();
  },
});
