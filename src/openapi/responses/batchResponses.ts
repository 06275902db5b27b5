import { z } from 'zod';

/** The OpenAPI shape of one outcome of a batch sent with atomic=false. */
export const batchOutcome = (data: z.ZodType) =>
  z.object({
    index: z.int().describe('Position of the item in the batch, from 0'),
    status: z.int().describe('What the item alone would have been answered'),
    data: data.optional().describe('The item after the change, when it succeeded'),
    errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .describe('422: `<batch>.<index>.<key>` → messages'),
    message: z.string().optional().describe('403: why'),
  });
