import type { WebhookRow } from '../infra/db/schema/webhooks.js';
import { batchToSend } from './deliveryBatch.js';
import type { DeliveryContext } from './deliveryContext.js';
import { recordAnswer, recordError } from './deliveryRecord.js';
import { sendBatch } from './deliverySend.js';

/**
 * One batch of one webhook: the batch to send (deliveryBatch.ts), sent signed
 * (deliverySend.ts), the answer recorded (deliveryRecord.ts). Answers the cursor after the
 * batch when the receiver took it, else undefined (nothing to send, refused, or failed).
 */
export async function attemptDelivery(
  ctx: DeliveryContext,
  hook: WebhookRow,
): Promise<string | undefined> {
  const startedAt = ctx.deps.clock();
  try {
    const batch = await batchToSend(ctx, hook);
    if (!batch) return undefined;
    ctx.deps.stats.lag(hook.id, batch.since);
    const result = await sendBatch(ctx, hook, batch);
    return await recordAnswer(ctx, hook, batch, result);
  } catch (err) {
    await recordError(ctx, hook, startedAt, err);
    return undefined;
  }
}
