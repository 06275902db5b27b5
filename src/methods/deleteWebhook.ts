import { z } from 'zod';
import { domainErrors } from '../shared/domainErrors.js';
import { idParam } from '../shared/paramTypes.js';
import { findWebhook, removeWebhook } from '../webhooks/webhookRepository.js';
import { defineMethod, noContent } from './method.js';

/** deleteWebhook: stops the deliveries at once (a batch in flight may still arrive). */
export const deleteWebhook = defineMethod({
  name: 'deleteWebhook',
  tag: 'Webhooks',
  summary: 'Delete a webhook',
  description:
    "Deliveries stop at once; a batch already on its way may still arrive. `404` when it does not exist; `403` for another account's webhook.",
  example: { webhook_id: '01927f9c-5d1e-7a3b-9c4d-2e6f8a1b3c5d' },
  changesData: true,
  success: [{ status: 204, description: 'Deleted' }],
  params: z.object({ webhook_id: idParam() }),
  async handle({ webhook_id }, { caller, deps }) {
    const hook = await findWebhook(deps.db, webhook_id);
    if (!hook) throw domainErrors.webhookNotFound();
    if (hook.accountId !== caller.accountId) throw domainErrors.foreignWebhook();
    if (!(await removeWebhook(deps.db, webhook_id, caller.accountId)))
      throw domainErrors.webhookNotFound();
    return noContent();
  },
});
