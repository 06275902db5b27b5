import type { WebhookRow } from '../infra/db/schema/webhooks.js';
import { isDatabaseUnavailable } from '../infra/db/databaseErrors.js';
import { CursorExpiredError } from '../shared/domainErrors.js';
import { GIVE_UP_AFTER_MS, retryDelayMs } from './backoff.js';
import type { DeliveryContext } from './deliveryContext.js';
import type { PendingBatch } from './deliveryBatch.js';
import type { PostResult } from './post.js';
import { delivered, disable, failed } from './webhookRepository.js';

/**
 * Records the receiver's answer on the row and in the stats. Taken: the cursor moves past
 * the batch and the lease is kept for the next one; answers the cursor after it (undefined
 * when the row was not this batch's any more). Refused: a retry is planned, or the webhook
 * is disabled once it has failed for 24 hours; answers undefined.
 */
export async function recordAnswer(
  ctx: DeliveryContext,
  hook: WebhookRow,
  batch: PendingBatch,
  result: PostResult,
): Promise<string | undefined> {
  const { deps, options } = ctx;
  const after = deps.clock();
  if (result.ok) {
    const kept = await delivered(deps.db, hook.id, batch.id, after, {
      instance: options.instance,
      until: new Date(after.getTime() + options.leaseMs),
    });
    deps.stats.count('delivered');
    deps.stats.lag(hook.id, undefined);
    return kept ? batch.next : undefined;
  }
  const retryAt = new Date(after.getTime() + retryDelayMs(hook.attempts + 1, options.random));
  const off = await failed(
    deps.db,
    hook.id,
    options.instance,
    after,
    result.error ?? 'failed',
    retryAt,
    GIVE_UP_AFTER_MS,
  );
  deps.stats.count(off ? 'disabled' : 'failed');
  if (off) deps.stats.lag(hook.id, undefined);
  return undefined;
}

/**
 * An attempt that threw. Changes purged before they were delivered disable the webhook;
 * anything else is logged, and the lease runs out and the webhook is taken up again, so
 * nothing is lost.
 */
export async function recordError(
  ctx: DeliveryContext,
  hook: WebhookRow,
  startedAt: Date,
  err: unknown,
): Promise<void> {
  const { deps, log } = ctx;
  if (err instanceof CursorExpiredError) {
    await disable(deps.db, hook.id, startedAt, 'changes were purged before they were delivered');
    deps.stats.count('disabled');
    return;
  }
  if (isDatabaseUnavailable(err)) log.warn({ err }, 'webhook delivery: database unavailable');
  else log.error({ err, webhook: hook.id }, 'webhook delivery failed');
}
