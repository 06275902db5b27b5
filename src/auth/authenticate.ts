import { errors } from '../http/errors.js';
import { hashApiKey } from './apiKeys.js';
import type { Caller } from './caller.js';
import type { KeyCache } from './keyCache.js';

export interface Authenticator {
  (key: string | undefined): Promise<Caller>;
}

/** The shared key epoch, or undefined when it cannot be read (then the cache is bypassed). */
export type EpochReader = () => Promise<string | undefined>;

/** Spec 5: 401 for no or unknown key, 402 without Pro, 403 when blocked. */
export function createAuthenticator(
  lookup: (hash: string) => Promise<Caller | undefined>,
  cache: KeyCache,
  now: () => number,
  readEpoch: EpochReader = async () => undefined,
): Authenticator {
  async function find(hash: string): Promise<Caller | undefined> {
    if (!cache.isLive()) return lookup(hash);
    const epoch = await readEpoch();
    if (epoch === undefined) return lookup(hash);
    const cached = cache.get(hash, now(), epoch);
    if (cached) return cached;
    const ticket = cache.ticket(epoch);
    const caller = await lookup(hash);
    if (caller) cache.set(hash, caller, now(), ticket);
    return caller;
  }

  return async (key) => {
    if (!key || key.length > 512) throw errors.unauthorized();
    const caller = await find(hashApiKey(key));
    if (!caller) throw errors.unauthorized();
    if (caller.blocked) throw errors.accountBlocked();
    if (caller.plan !== 'pro') throw errors.proRequired();
    return caller;
  };
}
