import { z } from 'zod';
import { addField } from '../lists/schemas/addField.js';
import { defineMethod, noContent } from './method.js';

/**
 * spec 4.5. Parameters are validated in addField (lists/schemas/addField.ts), not by the
 * pipeline: a slug already in the list is found in the database and must land in the
 * same 422 as every other failing field (spec 7).
 */
export const addListSchemaField = defineMethod({
  name: 'addListSchemaField',
  params: z.record(z.string(), z.unknown()),
  async handle(params, { caller, deps }) {
    await addField(deps.db, caller, params, deps.clock());
    return noContent();
  },
});
