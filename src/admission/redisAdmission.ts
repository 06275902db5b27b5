import type { RequestCounts } from './limiters/requestCounter.js';
import {
  accountKey,
  assertAdmissible,
  isAdmissible,
  type Admission,
  type AdmissionPath,
} from './admission.js';
import type { AuthenticatorParts } from './admission.js';
import type { Caller } from './caller.js';
import type { CacheEntry, CacheTicket } from './keyCache.js';

/**
 * With Redis: one Redis round trip per request, and no Postgres while the key is cached.
 * The request's one script (limiters/requestCounter.ts) reads the shared key epoch and
 * the client's failed attempts, and counts the hit. Why each step is safe:
 * docs/api-conventions.md, "One round trip per request".
 * Whenever the script gets no answer, the rest of the request takes the in-process path.
 */
export function redisAdmission(
  { lookup, limiter, failedAttempts, lastWriteKey }: AuthenticatorParts,
  { cache, count }: NonNullable<AuthenticatorParts['redis']>,
  inProcess: AdmissionPath,
): AdmissionPath {
  const countFor = (caller: Caller, client: string, nowMs: number, expectEpoch?: string) =>
    count(
      {
        failuresKey: failedAttempts.keyOf(client),
        // A blocked or free account is refused anyway: its requests are not counted.
        accountKey: isAdmissible(caller) ? accountKey(caller.accountId) : undefined,
        expectVersion: expectEpoch,
        lastWriteKey: lastWriteKey?.(caller.accountId),
      },
      nowMs,
    );

  async function settle(caller: Caller, counts: RequestCounts, nowMs: number) {
    assertAdmissible(caller);
    // Not counted by the script when the epoch had moved: the key was checked again first.
    const rate = counts.rate ?? (await limiter.hit(accountKey(caller.accountId), nowMs));
    return { caller, rate, lastWrite: counts.lastWrite };
  }

  /** Cache hit: the entry names the account, so one script does it all. */
  async function fromCache(
    entry: CacheEntry,
    hash: string,
    client: string,
    nowMs: number,
    ticket: CacheTicket,
  ): Promise<Admission> {
    const counts = await countFor(entry.caller, client, nowMs, entry.epoch);
    if (!counts) return inProcess(hash, client, nowMs);
    cache.observe(counts.version, ticket);
    failedAttempts.assertUnder(client, counts.failures, nowMs);
    if (counts.version === entry.epoch) return settle(entry.caller, counts, nowMs);

    // Some account changed since the entry was read: read the key again. The epoch just
    // read predates this lookup, so the answer may be cached under it.
    const caller = await lookup(hash);
    if (!caller) {
      cache.drop(hash);
      return failedAttempts.refuse(client, nowMs);
    }
    cache.set(hash, caller, nowMs, { ...ticket, epoch: counts.version });
    return settle(caller, counts, nowMs);
  }

  /** Cache miss: Postgres first (the script needs the account), then the script. */
  async function fromPostgres(
    hash: string,
    client: string,
    nowMs: number,
    ticket: CacheTicket,
  ): Promise<Admission> {
    const caller = await lookup(hash);
    if (!caller) return failedAttempts.refuse(client, nowMs);
    const counts = await countFor(caller, client, nowMs);
    if (!counts) return inProcess(hash, client, nowMs, caller);
    // The script's epoch was read after the lookup, so a change committed in between could
    // hide under it. Only when it equals an epoch seen before the lookup began has no
    // change been announced in between (the epoch only grows), and the answer is current.
    if (counts.version === ticket.epoch) cache.set(hash, caller, nowMs, ticket);
    cache.observe(counts.version, ticket);
    failedAttempts.assertUnder(client, counts.failures, nowMs);
    return settle(caller, counts, nowMs);
  }

  return (hash, client, nowMs) => {
    const ticket = cache.ticket();
    const entry = cache.entry(hash, nowMs);
    return entry
      ? fromCache(entry, hash, client, nowMs, ticket)
      : fromPostgres(hash, client, nowMs, ticket);
  };
}
