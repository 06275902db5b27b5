import { sql } from 'drizzle-orm';
import type { AppDeps } from '../appDeps.js';
import { errors, fromDomainError, type ApiError } from '../http/errors.js';
import { queryRows, type Database } from '../infra/db/client.js';
import { prepareListQueries } from '../lists/queries.js';
import type { MethodResult } from '../methods/method.js';
import { DomainError, domainErrors } from '../shared/errors.js';
import { serializeReply } from '../shared/orderedJson.js';
import { requestFingerprint } from './fingerprint.js';

/** How long an answer is replayed. */
export const KEY_LIFETIME_HOURS = 24;
/** The advisory lock class of idempotency keys (the object is a hash of account and key). */
const LOCK_CLASS = 0x4c4b;

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

/**
 * Runs a method once per (account, key) and answers every repeat with the first answer.
 *
 * One transaction holds it all: a transaction-scoped advisory lock on the key (a repeat
 * while the first still runs gets 409, on any instance), the look-up of a stored answer,
 * the method's own writes and the stored answer. A crash leaves both the write and the
 * answer or neither. Answers where nothing was done — 403, and anything thrown that is not
 * the domain's 404 or 422 (5xx, lost connections) — are not stored: the transaction rolls
 * back and a retry runs again. 401, 402 and 429 are answered before this runs.
 */
export async function answerOnce(
  deps: AppDeps,
  request: KeyedRequest,
  run: (deps: AppDeps) => Promise<MethodResult>,
): Promise<KeyedAnswer> {
  const fingerprint = requestFingerprint(request.method, request.params);
  return deps.db.transaction(async (tx) => {
    // The lock first, in a statement of its own: the look-up after it must see an answer
    // committed while this request waited for nothing (a snapshot taken before the lock would not).
    const [lock] = await queryRows<{ locked: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${LOCK_CLASS}, hashtext(${`${request.ownerId}:${request.key}`})) as locked`,
    );
    if (!lock?.locked) throw errors.idempotencyKeyInUse();

    const [stored] = await queryRows<{
      method: string;
      fingerprint: string;
      status: number;
      body: string | null;
    }>(
      tx,
      sql`select method, fingerprint, status, body from idempotency_keys
          where owner_id = ${request.ownerId} and key = ${request.key} and expires_at > now()`,
    );
    if (stored) {
      if (stored.method !== request.method || stored.fingerprint !== fingerprint) {
        throw domainErrors.invalid(
          'idempotency_key',
          'This idempotency key was used with another method or other parameters.',
        );
      }
      return { status: stored.status, body: stored.body, replayed: true };
    }

    const answer = await firstAnswer(tx, deps, run);
    await tx.execute(
      sql`insert into idempotency_keys (owner_id, key, method, fingerprint, status, body, expires_at)
          values (${request.ownerId}, ${request.key}, ${request.method}, ${fingerprint},
                  ${answer.status}, ${answer.body}, now() + make_interval(hours => ${KEY_LIFETIME_HOURS}))
          on conflict (owner_id, key) do update set method = excluded.method,
            fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
            created_at = now(), expires_at = excluded.expires_at`,
    );
    return { ...answer, replayed: false };
  });
}

/** The method's answer, its writes in a savepoint so a 404 or 422 leaves nothing half done. */
async function firstAnswer(
  tx: Database,
  deps: AppDeps,
  run: (deps: AppDeps) => Promise<MethodResult>,
): Promise<Omit<KeyedAnswer, 'replayed'>> {
  try {
    const result = await tx.transaction((inner) => run(onTransaction(deps, inner)));
    return { status: result.status, body: result.status === 204 ? null : text(result.body) };
  } catch (err) {
    const stored = storable(err);
    if (!stored) throw err;
    return { status: stored.status, body: text(stored.body) };
  }
}

/** A domain 404 or 422: the request was understood and answered; a repeat gets the same. */
function storable(err: unknown): ApiError | undefined {
  if (!(err instanceof DomainError)) return undefined;
  const mapped = fromDomainError(err);
  return mapped.status === 404 || mapped.status === 422 ? mapped : undefined;
}

function text(body: unknown): string {
  const out = serializeReply(body);
  return typeof out === 'string' ? out : out.toString('utf8');
}

/** The app's dependencies with every query of the method on the transaction. */
function onTransaction(deps: AppDeps, tx: Database): AppDeps {
  return { ...deps, db: tx, lists: { ...deps.lists, db: tx, queries: prepareListQueries(tx) } };
}
