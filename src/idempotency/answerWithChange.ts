import { sql } from 'drizzle-orm';
import type { AppDeps } from '../appDeps.js';
import { violatesUnique } from '../infra/db/databaseErrors.js';
import type { KeyClaim, MethodResult } from '../methods/method.js';
import { requestFingerprint } from './fingerprint.js';
import {
  findAnswer,
  KEY_LIFETIME_HOURS,
  replay,
  storable,
  storeAnswer,
  text,
  type Fingerprinted,
  type KeyedAnswer,
  type KeyedRequest,
} from './storedAnswers.js';

const KEY_CONSTRAINT = 'idempotency_keys_owner_id_key_pk';

/**
 * answerOnce for a method whose change is one statement (`writesKeyWithChange`): the answer
 * is rendered before the write and inserted by that same statement, so a keyed call costs
 * what an unkeyed one does — no transaction, lock or look-up of its own. The key's primary
 * key does the rest: a repeat's statement waits for the first's to finish, then fails on the
 * key and writes nothing, and the stored answer is replayed. (A repeat therefore never gets
 * a 409 here: the first request's window is one statement.)
 */
export async function answerWithChange(
  deps: AppDeps,
  request: KeyedRequest,
  run: (claim: KeyClaim) => Promise<MethodResult>,
): Promise<KeyedAnswer> {
  const keyed = { ...request, fingerprint: requestFingerprint(request.method, request.params) };
  // A second round only when an expired answer still held the key.
  for (let round = 1; ; round++) {
    let sent: { status: number; body: string | null } | undefined;
    const claim: KeyClaim = {
      statement(result) {
        sent = { status: result.status, body: result.status === 204 ? null : text(result.body) };
        return claimSql(keyed, sent);
      },
    };
    try {
      await run(claim);
      if (!sent) throw new Error(`${request.method} wrote no idempotency answer`);
      return { ...sent, replayed: false };
    } catch (err) {
      const found = await findAnswer(deps.db, request);
      if (found) return replay(found, keyed);
      if (violatesUnique(err, KEY_CONSTRAINT) && round === 1) {
        await deps.db.execute(
          sql`delete from idempotency_keys where owner_id = ${request.ownerId}
              and key = ${request.key} and expires_at <= now()`,
        );
        continue;
      }
      // A 404 or 422 wrote nothing and is stored on its own; anything else is not stored.
      const mapped = storable(err);
      if (!mapped) throw err;
      const answer = { status: mapped.status, body: text(mapped.body) };
      await deps.db.execute(storeAnswer(keyed, answer, 'keep'));
      return { ...answer, replayed: false };
    }
  }
}

/** The answer's row, inserted from the CTE `inserted` of the change's own statement. */
function claimSql(request: Fingerprinted, answer: { status: number; body: string | null }) {
  return sql`insert into idempotency_keys (owner_id, key, method, fingerprint, status, body, expires_at)
    select ${request.ownerId}::bigint, ${request.key}::text, ${request.method}::text,
           ${request.fingerprint}::text, ${answer.status}::smallint, ${answer.body}::text,
           now() + make_interval(hours => ${KEY_LIFETIME_HOURS})
    from inserted`;
}
