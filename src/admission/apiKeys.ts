import { hash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'lk_';

/** A new API key: 256 random bits, URL-safe. Only its hash is ever stored. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * SHA-256 is right for keys (high-entropy secrets need no slow hash, and lookups must be
 * fast); argon2id is kept for passwords. Comparing by hash in the index means no key
 * bytes are compared in user-visible time.
 */
export function hashApiKey(key: string): string {
  // one-shot: no Hash object per request
  return hash('sha256', key, 'hex');
}
