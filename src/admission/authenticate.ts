import { errors } from '../http/httpErrors.js';
import {
  accountKey,
  assertAdmissible,
  type Admission,
  type AdmissionPath,
  type AuthenticatorParts,
  type KeyLookup,
} from './admission.js';
import { hashApiKey } from './apiKeys.js';
import { redisAdmission } from './redisAdmission.js';

export type { Admission, AuthenticatorParts, KeyLookup };

/**
 * Authentication and the rate limit in one step, so that with Redis they cost one round
 * trip together. `client` is the caller's IP, for the failed-attempt brake.
 */
export interface Authenticator {
  (key: string | undefined, client: string): Promise<Admission>;
}

/** The authentication rules: 401 for no or unknown key, 402 without Pro, 403 when blocked. */
export function createAuthenticator(parts: AuthenticatorParts): Authenticator {
  const local = inProcessAdmission(parts);
  const viaRedis = parts.redis && redisAdmission(parts, parts.redis, local);
  return async (key, client) => {
    if (!key || key.length > 512) throw errors.unauthorized();
    const hash = hashApiKey(key);
    const nowMs = parts.now();
    parts.failedAttempts.assertNotKnownBraked(client, nowMs);
    return (viaRedis ?? local)(hash, client, nowMs);
  };
}

/**
 * Without Redis, or while it does not answer: nothing cached (no invalidation could reach
 * the cache), so the brake, then Postgres, then the count.
 */
function inProcessAdmission({ lookup, limiter, failedAttempts }: AuthenticatorParts) {
  const path: AdmissionPath = async (hash, client, nowMs, found) => {
    await failedAttempts.assertAllowed(client, nowMs);
    const caller = found ?? (await lookup(hash));
    if (!caller) return failedAttempts.refuse(client, nowMs);
    assertAdmissible(caller);
    return { caller, rate: await limiter.hit(accountKey(caller.accountId), nowMs) };
  };
  return path;
}
