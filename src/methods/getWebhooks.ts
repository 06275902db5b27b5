import { z } from 'zod';
import { Webhook } from '../openapi/responses/webhookResponses.js';
import { presentWebhook } from '../webhooks/webhookPresenter.js';
import { accountWebhooks } from '../webhooks/webhookRepository.js';
import { defineMethod, ok } from './method.js';

/** getWebhooks: the account's webhooks and how their deliveries go. */
export const getWebhooks = defineMethod({
  name: 'getWebhooks',
  tag: 'Webhooks',
  summary: 'Your webhooks, and whether each is delivering, failing or disabled',
  description:
    'Oldest first. `status` failing: a batch is being retried (`failing_since`, `last_error`); disabled: delivery gave up after 24 hours of failures, or its changes were purged before they could be delivered (`disabled_at`, `disabled_reason`). The secret is never shown again.',
  example: {},
  changesData: false,
  primaryOnly: "a webhook's delivery state changes every second; the list is small",
  success: [
    { status: 200, description: 'The webhooks', body: z.object({ data: z.array(Webhook) }) },
  ],
  params: z.object({}),
  async handle(_params, { caller, deps }) {
    const rows = await accountWebhooks(deps.db, caller.accountId);
    return ok({ data: rows.map((row) => presentWebhook(row)) });
  },
});
