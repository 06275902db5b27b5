import { errors } from '../http/httpErrors.js';
import type { RateDecision, RateLimiter } from './limiters/limiter.js';
import type { CountQuery, RequestCounts } from './limiters/requestCounter.js';
import type { FailedAttempts } from './failedAttempts.js';
import type { KeyCache } from './keyCache.js';
import type { Caller } from './caller.js';

/** An authenticated request, already counted against its account's limit (the authentication rules and the limits). */
export interface Admission {
  caller: Caller;
  rate: RateDecision;
  /**
   * Read replicas: the WAL position of the account's last write as the request's Redis
   * script read it ('' for none kept); undefined when not read — then reads use the primary.
   */
  lastWrite?: string;
}

export type KeyLookup = (hash: string) => Promise<Caller | undefined>;

/** The rest of a request's admission from its key hash; `found`: already looked up. */
export type AdmissionPath = (
  hash: string,
  client: string,
  nowMs: number,
  found?: Caller,
) => Promise<Admission>;

/** The account's rate-limit key: all methods of the account share it (the limits). */
export const accountKey = (accountId: number) => `a${accountId}`;

export function isAdmissible(caller: Caller): boolean {
  return !caller.blocked && caller.plan === 'pro';
}

/** The authentication rules: a blocked account (403) is refused before a missing plan (402). */
export function assertAdmissible(caller: Caller): void {
  if (caller.blocked) throw errors.accountBlocked();
  if (caller.plan !== 'pro') throw errors.proRequired();
}

/** What the authenticator is built from (wireAdmission.ts puts it together). */
export interface AuthenticatorParts {
  lookup: KeyLookup;
  /** per account: Redis with the in-process fallback, or in-process only */
  limiter: RateLimiter;
  failedAttempts: FailedAttempts;
  now: () => number;
  /** read replicas: the Redis key of an account's last write position */
  lastWriteKey?: (accountId: number) => string | undefined;
  /** with REDIS_URL: the key cache, and the request's one script (undefined: no answer) */
  redis?: {
    cache: KeyCache;
    count(query: CountQuery, nowMs: number): Promise<RequestCounts | undefined>;
  };
}
