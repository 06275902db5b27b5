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
 * answer or neither. A 404 or 422 rolls the transaction back (nothing half done) and is
 * stored after it. Answers where nothing was done — 403, and anything thrown that is not the
 * domain's 404 or 422 (5xx, lost connections) — are not stored: a retry runs again. 401, 402
 * and 429 are answered before this runs.
 */
export async function answerOnce(
  deps: AppDeps,
  request: KeyedRequest,
  run: (deps: AppDeps) => Promise<MethodResult>,
): Promise<KeyedAnswer> {
  const keyed = { ...request, fingerprint: requestFingerprint(request.method, request.params) };
  try {
    return await deps.db.transaction(async (tx) => {
      // The lock first, in a statement of its own: the look-up after it must see an answer
      // committed while the first request held the lock (a snapshot taken before it would not).
      const [lock] = await queryRows<{ locked: boolean }>(
        tx,
        sql`select pg_try_advisory_xact_lock(${LOCK_CLASS}, hashtext(${`${request.ownerId}:${request.key}`})) as locked`,
      );
      if (!lock?.locked) throw errors.idempotencyKeyInUse();
      const [found] = await queryRows<StoredRow>(
        tx,
        sql`select method, fingerprint, status, body from idempotency_keys
            where owner_id = ${request.ownerId} and key = ${request.key} and expires_at > now()`,
      );
      if (found) return replay(found, keyed);
      const result = await run(onTransaction(deps, tx));
      const answer = {
        status: result.status,
        body: result.status === 204 ? null : text(result.body),
      };
      await tx.execute(storeAnswer(keyed, answer, 'replace'));
      return { ...answer, replayed: false };
    });
  } catch (err) {
    // A 404 or 422 is answered with nothing written (the transaction rolled back) and stored
    // on its own. Should another request with the key have run in between, its answer stays.
    const mapped = storable(err);
    if (!mapped) throw err;
    const answer = { status: mapped.status, body: text(mapped.body) };
    await deps.db.execute(storeAnswer(keyed, answer, 'keep'));
    return { ...answer, replayed: false };
  }
}

interface StoredRow {
  method: string;
  fingerprint: string;
  status: number;
  body: string | null;
}

type Fingerprinted = KeyedRequest & { fingerprint: string };

function replay(found: StoredRow, request: Fingerprinted): KeyedAnswer {
  if (found.method !== request.method || found.fingerprint !== request.fingerprint) {
    throw domainErrors.invalid(
      'idempotency_key',
      'This idempotency key was used with another method or other parameters.',
    );
  }
  return { status: found.status, body: found.body, replayed: true };
}

/** The answer's row: it replaces an expired row of the key, and a live one unless `keep`. */
function storeAnswer(
  request: Fingerprinted,
  answer: { status: number; body: string | null },
  live: 'replace' | 'keep',
) {
  return sql`insert into idempotency_keys (owner_id, key, method, fingerprint, status, body, expires_at)
    values (${request.ownerId}, ${request.key}, ${request.method}, ${request.fingerprint},
            ${answer.status}, ${answer.body}, now() + make_interval(hours => ${KEY_LIFETIME_HOURS}))
    on conflict (owner_id, key) do update set method = excluded.method,
      fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
      created_at = now(), expires_at = excluded.expires_at
    ${live === 'keep' ? sql`where idempotency_keys.expires_at <= now()` : sql``}`;
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
