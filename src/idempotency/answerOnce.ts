import { sql } from 'drizzle-orm';
import type { AppDeps } from '../appDeps.js';
import { errors } from '../http/httpErrors.js';
import { queryRows, type Database } from '../infra/db/client.js';
import { UNQUEUED } from '../contacts/contactLocks.js';
import { listsOnTransaction } from '../lists/context.js';
import type { MethodResult } from '../methods/method.js';
import { requestFingerprint } from './fingerprint.js';
import {
  findAnswer,
  replay,
  storable,
  storeAnswer,
  text,
  type KeyedAnswer,
  type KeyedRequest,
} from './storedAnswers.js';

/** The advisory lock class of idempotency keys (the object is a hash of account and key). */
const LOCK_CLASS = 0x4c4b;

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
      const found = await findAnswer(tx, request);
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

/** The app's dependencies with every query of the method on the transaction. */
function onTransaction(deps: AppDeps, tx: Database): AppDeps {
  return {
    ...deps,
    db: tx,
    lists: listsOnTransaction(deps.lists, tx),
    contactWrites: UNQUEUED,
  };
}
