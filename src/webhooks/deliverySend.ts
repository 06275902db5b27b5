import type { WebhookRow } from '../infra/db/schema/webhooks.js';
import type { DeliveryContext } from './deliveryContext.js';
import type { PendingBatch } from './deliveryBatch.js';
import { post, type PostResult } from './post.js';
import { sign } from './signature.js';

/** POSTs the batch to the webhook's URL, signed with its secret (Standard Webhooks headers). */
export async function sendBatch(
  ctx: DeliveryContext,
  hook: WebhookRow,
  batch: PendingBatch,
): Promise<PostResult> {
  const { deps, options } = ctx;
  const timestamp = Math.floor(deps.clock().getTime() / 1000);
  const secret = deps.cipher.decrypt(hook.secret);
  return post(
    hook.url,
    batch.body,
    {
      'webhook-id': batch.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': sign(secret, batch.id, timestamp, batch.body),
    },
    { timeoutMs: options.timeoutMs, allowPrivate: options.allowPrivate },
  );
}
