import { createHash } from 'node:crypto';
import { decodeCursor, encodeCursor } from '../changes/cursor.js';
import { presentChanges } from '../changes/presentChange.js';
import { readChanges } from '../changes/readChanges.js';
import type { WebhookRow } from '../infra/db/schema/webhooks.js';
import { stringifyJson } from '../shared/orderedJson.js';
import type { DeliveryContext } from './deliveryContext.js';
import { idle, savePending } from './webhookRepository.js';

/** Changes in one POST at most. */
export const BATCH_SIZE = 100;

/** A batch about to be sent: its message id, its body, the cursor after it, its oldest change. */
export interface PendingBatch {
  id: string;
  body: string;
  next: string;
  since: Date;
}

/**
 * The batch to send: the one kept on the row (a retry sends the same batch, whoever sends
 * it), else the next one from the feed; undefined when there is none.
 */
export async function batchToSend(
  ctx: DeliveryContext,
  hook: WebhookRow,
): Promise<PendingBatch | undefined> {
  return savedBatch(hook) ?? (await nextBatch(ctx, hook));
}

function savedBatch(hook: WebhookRow): PendingBatch | undefined {
  if (!hook.pendingId) return undefined;
  return {
    id: hook.pendingId,
    body: hook.pendingBody!,
    next: hook.pendingNext!,
    since: hook.pendingSince!,
  };
}

/**
 * The next batch from the feed, kept on the row before it is sent. At the head of the feed
 * the webhook is left idle until its next look; undefined then, and when the lease was lost.
 */
async function nextBatch(
  ctx: DeliveryContext,
  hook: WebhookRow,
): Promise<PendingBatch | undefined> {
  const { deps, options } = ctx;
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
    const lookAgain = new Date(deps.clock().getTime() + options.idleMs);
    await idle(deps.db, hook.id, options.instance, next, lookAgain);
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
    id: messageId(hook),
    body,
    next,
    since: page.rows.reduce(
      (a, r) => (r.occurredAt < a ? r.occurredAt : a),
      page.rows[0]!.occurredAt,
    ),
  };
  if (!(await savePending(deps.db, hook.id, options.instance, pending))) return undefined;
  return pending;
}

/** The same batch has the same id on every attempt, whoever sends it. */
function messageId(hook: WebhookRow): string {
  const digest = createHash('sha256').update(`${hook.id}:${hook.cursor}`).digest('base64url');
  return `msg_${digest.slice(0, 27)}`;
}
