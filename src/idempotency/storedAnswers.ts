import { sql } from 'drizzle-orm';
import { fromDomainError, type ApiError } from '../http/httpErrors.js';
import { queryRows, type Database } from '../infra/db/client.js';
import { DomainError, domainErrors } from '../shared/domainErrors.js';
import { serializeReply } from '../shared/orderedJson.js';

/** How long an answer is replayed. */
export const KEY_LIFETIME_HOURS = 24;

export interface KeyedRequest {
  ownerId: number;
  key: string;
  method: string;
  params: Record<string, unknown>;
}

/** An answer as sent: the status and the JSON text (null for 204). */
export interface KeyedAnswer {
  status: number;
  body: string | null;
  replayed: boolean;
}

export type Fingerprinted = KeyedRequest & { fingerprint: string };

/** The live answer stored for the request's key, if any. */
export async function findAnswer(db: Database, request: KeyedRequest) {
  const [found] = await queryRows<StoredRow>(
    db,
    sql`select method, fingerprint, status, body from idempotency_keys
        where owner_id = ${request.ownerId} and key = ${request.key} and expires_at > now()`,
  );
  return found;
}

export interface StoredRow {
  method: string;
  fingerprint: string;
  status: number;
  body: string | null;
}

export function replay(found: StoredRow, request: Fingerprinted): KeyedAnswer {
  if (found.method !== request.method || found.fingerprint !== request.fingerprint) {
    throw domainErrors.invalid(
      'idempotency_key',
      'This idempotency key was used with another method or other parameters.',
    );
  }
  return { status: found.status, body: found.body, replayed: true };
}

/**
 * The answer's row: it replaces an expired row of the key, and a live one unless `keep`.
 * `excluded.created_at` (its default, now()) stands for now() in the conflict clause: Citus
 * refuses functions that are not immutable there.
 */
export function storeAnswer(
  request: Fingerprinted,
  answer: { status: number; body: string | null },
  live: 'replace' | 'keep',
) {
  return sql`insert into idempotency_keys (owner_id, key, method, fingerprint, status, body, expires_at)
    values (${request.ownerId}, ${request.key}, ${request.method}, ${request.fingerprint},
            ${answer.status}, ${answer.body}, now() + make_interval(hours => ${KEY_LIFETIME_HOURS}))
    on conflict (owner_id, key) do update set method = excluded.method,
      fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
      created_at = excluded.created_at, expires_at = excluded.expires_at
    ${live === 'keep' ? sql`where idempotency_keys.expires_at <= excluded.created_at` : sql``}`;
}

/** A domain 404 or 422: the request was understood and answered; a repeat gets the same. */
export function storable(err: unknown): ApiError | undefined {
  if (!(err instanceof DomainError)) return undefined;
  const mapped = fromDomainError(err);
  return mapped.status === 404 || mapped.status === 422 ? mapped : undefined;
}

export function text(body: unknown): string {
  const out = serializeReply(body);
  return typeof out === 'string' ? out : out.toString('utf8');
}
