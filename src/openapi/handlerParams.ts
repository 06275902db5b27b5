import { z } from 'zod';
import type { ApiMethod } from '../methods/method.js';
import { addFieldParams } from '../lists/schemas/addField.js';
import { newListParams } from '../lists/schemas/createList.js';
import { createTargetParams } from '../lists/schemas/createTarget.js';

/**
 * Methods whose pipeline schema is an open record because the handler validates the
 * parameters itself (to merge database checks into the same 422). The document uses the
 * schemas those handlers validate with; a test fails for any method left open.
 */
const validatedInHandler: Record<string, z.ZodType> = {
  createListSchema: z.intersection(createTargetParams, newListParams),
  addListSchemaField: addFieldParams,
};

/** The schema that describes a method's parameters. */
export function documentedParams(method: ApiMethod): z.ZodType {
  return Object.hasOwn(validatedInHandler, method.name)
    ? (validatedInHandler[method.name] as z.ZodType)
    : method.params;
}
