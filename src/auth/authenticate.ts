import { errors } from '../http/errors.js';
import { hashApiKey } from './apiKeys.js';
import type { Caller } from './caller.js';
import type { FailedAttempts } from './failedAttempts.js';
import type { KeyCache } from './keyCache.js';

export interface Authenticator {
  /** `client` is the caller's IP, for the failed-attempt brake */
  (key: string | undefined, client: string): Promise<Caller>;
}

/** The shared key epoch, or undefined when it cannot be read (then the cache is bypassed). */
export type EpochReader = () => Promise<string | undefined>;

export interface AuthenticatorOptions {
  readEpoch?: EpochReader;
  failedAttempts?: FailedAttempts;
}

/** Spec 5: 401 for no or unknown key, 402 without Pro, 403 when blocked. */
export function createAuthenticator(
  lookup: (hash: string) => Promise<Caller | undefined>,
  cache: KeyCache,
  now: () => number,
  { readEpoch = async () => undefined, failedAttempts }: AuthenticatorOptions = {},
): Authenticator {
  async function find(hash: string, epoch: string | undefined): Promise<Caller | undefined> {
    if (epoch === undefined || !cache.isLive()) return lookup(hash);
    const cached = cache.get(hash, now(), epoch);
    if (cached) return cached;
    const ticket = cache.ticket(epoch);
    const caller = await lookup(hash);
    if (caller) cache.set(hash, caller, now(), ticket);
    return caller;
  }

  return async (key, client) => {
    if (!key || key.length > 512) throw errors.unauthorized();
    const hash = hashApiKey(key);
    // Both reads go out together (one Redis round trip with ioredis' pipelining).
    const [epoch] = await Promise.all([
      cache.isLive() ? readEpoch() : undefined,
      failedAttempts?.assertAllowed(client, now()),
    ]);
    const caller = await find(hash, epoch);
    if (!caller) {
      await failedAttempts?.record(client, now());
      throw errors.unauthorized();
    }
    if (caller.blocked) throw errors.accountBlocked();
    if (caller.plan !== 'pro') throw errors.proRequired();
    return caller;
  };
}
