import type { WebhookRow } from '../infra/db/schema/webhooks.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A webhook as the API shows it; the secret only when `secret` is given (at creation). */
export function presentWebhook(row: WebhookRow, secret?: string) {
  return {
    id: row.id,
    url: row.url,
    types: row.types,
    schema_id: row.schemaId,
    bot_id: row.botId,
    status: row.disabledAt ? 'disabled' : row.failingSince ? 'failing' : 'active',
    created_at: row.createdAt.toISOString(),
    last_success_at: iso(row.lastSuccessAt),
    failing_since: iso(row.failingSince),
    last_error: row.lastError,
    disabled_at: iso(row.disabledAt),
    disabled_reason: row.disabledReason,
    ...(secret === undefined ? {} : { secret }),
  };
}
