import { z } from 'zod';
import { CHANGE_TYPES } from '../../changes/changeTypes.js';

/** A webhook as getWebhooks shows it (createWebhook adds `secret`). */
export const Webhook = z.object({
  id: z.string(),
  url: z.string(),
  types: z.array(z.enum(CHANGE_TYPES)).nullable().describe('null: every type'),
  schema_id: z.string().nullable(),
  bot_id: z.int().nullable(),
  status: z
    .enum(['active', 'failing', 'disabled'])
    .describe('failing: retrying a batch the receiver has not taken; disabled: gave up'),
  created_at: z.iso.datetime(),
  last_success_at: z.iso.datetime().nullable(),
  failing_since: z.iso.datetime().nullable(),
  last_error: z
    .string()
    .nullable()
    .describe(
      "The last failure: the receiver's status and the start of its answer, or the network error",
    ),
  disabled_at: z.iso.datetime().nullable(),
  disabled_reason: z.string().nullable(),
});

export const CreatedWebhook = Webhook.extend({
  secret: z.string().describe('The signing secret (`whsec_…`), shown only in this answer: keep it'),
});
