import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { decodeCursor, encodeCursor } from '../changes/cursor.js';
import type { LayoutCache } from '../changes/layouts.js';
import { presentChanges } from '../changes/presentChange.js';
import { readChanges } from '../changes/readChanges.js';
import type { Database } from '../infra/db/client.js';
import type { WebhookRow } from '../infra/db/schema/webhooks.js';
import { isDatabaseUnavailable } from '../infra/db/databaseErrors.js';
import type { FieldCipher } from '../lists/encryption/cipher.js';
import { CursorExpiredError } from '../shared/domainErrors.js';
import { stringifyJson } from '../shared/orderedJson.js';
import { GIVE_UP_AFTER_MS, retryDelayMs } from './backoff.js';
import { post } from './post.js';
import {
  claimDue,
  delivered,
  disable,
  failed,
  idle,
  release,
  savePending,
} from './webhookRepository.js';
import { sign } from './signature.js';
import type { WebhookStats } from './stats.js';

/** Changes in one POST at most. */
export const BATCH_SIZE = 100;

export interface DeliveryDeps {
  db: Database;
  cipher: FieldCipher;
  layouts: LayoutCache;
  clock: () => Date;
  stats: WebhookStats;
}

export interface DeliveryOptions {
  /** names this process in leases (host and pid) */
  instance: string;
  allowPrivate: boolean;
  /** how long a claimed webhook stays this instance's; longer than `timeoutMs` */
  leaseMs: number;
  /** a receiver's answer must come within this */
  timeoutMs?: number;
  /** deliveries at once per process: a slow receiver holds one slot, never the rest */
  concurrency?: number;
  /** how often due webhooks are looked for */
  pollMs?: number;
  /** how soon a webhook with nothing new is looked at again */
  idleMs?: number;
  random?: () => number;
}

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
 */
export function startWebhookDelivery(
  deps: DeliveryDeps,
  log: Pick<Logger, 'warn' | 'error'>,
  options: DeliveryOptions,
): DeliveryWorker {
  const {
    instance,
    leaseMs,
    timeoutMs = 10_000,
    concurrency = 8,
    pollMs = 500,
    idleMs = 1_000,
    random = Math.random,
  } = options;
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
      const next = await attempt(hook);
      if (next === undefined) return;
      if (stopped) {
        await release(deps.db, hook.id, instance);
        return;
      }
      hook = { ...hook, cursor: next, pendingId: null, attempts: 0, failingSince: null };
    }
  };

  /** One batch: answers the cursor after it when the receiver took it, else undefined. */
  const attempt = async (hook: WebhookRow): Promise<string | undefined> => {
    const now = deps.clock();
    try {
      const pending = hook.pendingId
        ? {
            id: hook.pendingId,
            body: hook.pendingBody!,
            next: hook.pendingNext!,
            since: hook.pendingSince!,
          }
        : await nextBatch(hook);
      if (!pending) return undefined;
      deps.stats.lag(hook.id, pending.since);
      const timestamp = Math.floor(deps.clock().getTime() / 1000);
      const secret = deps.cipher.decrypt(hook.secret);
      const result = await post(
        hook.url,
        pending.body,
        {
          'webhook-id': pending.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': sign(secret, pending.id, timestamp, pending.body),
        },
        { timeoutMs, allowPrivate: options.allowPrivate },
      );
      const after = deps.clock();
      if (result.ok) {
        const kept = await delivered(deps.db, hook.id, pending.id, after, {
          instance,
          until: new Date(after.getTime() + leaseMs),
        });
        deps.stats.count('delivered');
        deps.stats.lag(hook.id, undefined);
        return kept ? pending.next : undefined;
      }
      const retryAt = new Date(after.getTime() + retryDelayMs(hook.attempts + 1, random));
      const off = await failed(
        deps.db,
        hook.id,
        instance,
        after,
        result.error ?? 'failed',
        retryAt,
        GIVE_UP_AFTER_MS,
      );
      deps.stats.count(off ? 'disabled' : 'failed');
      if (off) deps.stats.lag(hook.id, undefined);
      return undefined;
    } catch (err) {
      if (err instanceof CursorExpiredError) {
        await disable(deps.db, hook.id, now, 'changes were purged before they were delivered');
        deps.stats.count('disabled');
        return undefined;
      }
      // the lease runs out and the webhook is taken up again: nothing is lost
      if (isDatabaseUnavailable(err)) log.warn({ err }, 'webhook delivery: database unavailable');
      else log.error({ err, webhook: hook.id }, 'webhook delivery failed');
      return undefined;
    }
  };

  /** The next batch from the feed, kept on the row before it is sent; undefined: none. */
  const nextBatch = async (hook: WebhookRow) => {
    const cursor = decodeCursor(hook.cursor);
    if (!cursor) throw new Error(`webhook ${hook.id} has an unreadable cursor`);
    const page = await readChanges(
      deps.db,
      {
        accountId: hook.accountId,
        schemaId: hook.schemaId ?? undefined,
        botId: hook.botId ?? undefined,
        types: hook.types ?? undefined,
      },
      cursor,
      BATCH_SIZE,
      true,
    );
    const next = encodeCursor(page.next);
    if (page.rows.length === 0) {
      await idle(deps.db, hook.id, instance, next, new Date(deps.clock().getTime() + idleMs));
      deps.stats.lag(hook.id, undefined);
      return undefined;
    }
    const changes = await presentChanges(
      hook.accountId,
      page.rows,
      deps.db,
      deps.cipher,
      deps.layouts,
    );
    const body = stringifyJson({
      type: 'changes',
      timestamp: deps.clock().toISOString(),
      data: changes,
    });
    const pending = {
      // the same batch has the same id on every attempt, whoever sends it
      id: `msg_${createHash('sha256').update(`${hook.id}:${hook.cursor}`).digest('base64url').slice(0, 27)}`,
      body,
      next,
      since: page.rows.reduce(
        (a, r) => (r.occurredAt < a ? r.occurredAt : a),
        page.rows[0]!.occurredAt,
      ),
    };
    if (!(await savePending(deps.db, hook.id, instance, pending))) return undefined;
    return pending;
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

  return {
    async tick() {
      await tick();
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await ticking;
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
