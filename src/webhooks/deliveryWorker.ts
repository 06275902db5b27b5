import type { Logger } from 'pino';
import type { WebhookRow } from '../infra/db/schema/webhooks.js';
import { isDatabaseUnavailable } from '../infra/db/databaseErrors.js';
import { attemptDelivery } from './deliveryAttempt.js';
import {
  settleOptions,
  type DeliveryContext,
  type DeliveryDeps,
  type DeliveryOptions,
} from './deliveryContext.js';
import { claimDue, release } from './webhookRepository.js';

export type { DeliveryDeps, DeliveryOptions } from './deliveryContext.js';

export interface DeliveryWorker {
  /** one round now: claim what is due and deliver it (tests drive the worker with this) */
  tick(): Promise<void>;
  /** waits for the deliveries in flight and stops */
  stop(): Promise<void>;
}

/**
 * Pushes each webhook's changes from the feed: a batch of up to 100, in feed order, signed
 * (Standard Webhooks), kept on the webhook's row until the receiver answers 2xx, then the
 * cursor moves past it. Any failure retries the same batch later (backoff.ts) until the
 * webhook has failed for 24 hours, when it is disabled. At least once, never skipped, never
 * reordered: only a batch in flight when an instance dies can arrive twice.
 *
 * This file is the loop: every `pollMs` it leases the due webhooks (up to `concurrency` in
 * flight) and delivers each; one batch's attempt is deliveryAttempt.ts.
 */
export function startWebhookDelivery(
  deps: DeliveryDeps,
  log: Pick<Logger, 'warn' | 'error'>,
  options: DeliveryOptions,
): DeliveryWorker {
  const ctx: DeliveryContext = { deps, log, options: settleOptions(options) };
  const { instance, leaseMs, concurrency, pollMs } = ctx.options;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  /**
   * Delivers the webhook's batches one after the other while the receiver takes them and
   * more are waiting (the lease renewed with each), so a busy webhook is not held to one
   * batch per poll; stops at the head, at a failure, or when the worker stops.
   */
  const deliverOne = async (claimed: WebhookRow) => {
    let hook = claimed;
    for (;;) {
      const next = await attemptDelivery(ctx, hook);
      if (next === undefined) return;
      if (stopped) {
        await release(deps.db, hook.id, instance);
        return;
      }
      hook = { ...hook, cursor: next, pendingId: null, attempts: 0, failingSince: null };
    }
  };

  const tick = async () => {
    if (stopped) return;
    const free = concurrency - inFlight.size;
    if (free <= 0) return;
    const now = deps.clock();
    const hooks = await claimDue(deps.db, instance, now, new Date(now.getTime() + leaseMs), free);
    for (const hook of hooks) {
      const job: Promise<void> = deliverOne(hook).finally(() => inFlight.delete(job));
      inFlight.add(job);
    }
  };

  let ticking: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (ticking) return;
    ticking = tick()
      .catch((err: unknown) => {
        if (isDatabaseUnavailable(err)) log.warn({ err }, 'webhook delivery: database unavailable');
        else log.error({ err }, 'webhook delivery: claiming failed');
      })
      .finally(() => {
        ticking = undefined;
      });
  }, pollMs);
  timer.unref();

  const drain = async () => {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
  };
  return {
    async tick() {
      await tick();
      await drain();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await ticking;
      await drain();
    },
  };
}
