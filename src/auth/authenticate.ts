import { errors } from '../http/errors.js';
import { hashApiKey } from './apiKeys.js';
import type { Caller } from './caller.js';
import type { KeyCache } from './keyCache.js';

export interface Authenticator {
  (key: string | undefined): Promise<Caller>;
}

/** Spec 5: 401 for no or unknown key, 402 without Pro, 403 when blocked. */
export function createAuthenticator(
  lookup: (hash: string) => Promise<Caller | undefined>,
  cache: KeyCache,
  now: () => number,
): Authenticator {
  return async (key) => {
    if (!key || key.length > 512) throw errors.unauthorized();
    const hash = hashApiKey(key);
    let caller = cache.get(hash, now());
    if (!caller) {
      caller = await lookup(hash);
      if (!caller) throw errors.unauthorized();
      cache.set(hash, caller, now());
    }
    if (caller.blocked) throw errors.accountBlocked();
    if (caller.plan !== 'pro') throw errors.proRequired();
    return caller;
  };
}
