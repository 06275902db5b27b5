import { z } from 'zod';
import { createList } from '../lists/schemas/createList.js';
import { presentListSchema } from '../lists/schemas/presenter.js';
import { created, defineMethod } from './method.js';

/**
 * spec 4.3. Parameters are validated in createList (lists/schemas/createList.ts), not
 * by the pipeline: whether the bot or project exists is checked against the database
 * and must land in the same 422 as every other failing field (spec 7).
 */
export const createListSchema = defineMethod({
  name: 'createListSchema',
  params: z.record(z.string(), z.unknown()),
  async handle(params, { caller, deps }) {
    const list = await createList(deps.db, caller, params, deps.clock());
    return created({ data: presentListSchema(list) });
  },
});
