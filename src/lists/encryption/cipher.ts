import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for is_encryptable values. Each ciphertext names the key that sealed it
 * (`enc:v1:<key id>:<base64 iv|tag|ciphertext>`), so ENCRYPTION_KEY can be rotated:
 * the new key seals, old keys listed in ENCRYPTION_OLD_KEYS still open (docs/records.md, "Key rotation").
 */
export interface FieldCipher {
  encrypt(plaintext: string): string;
  /** Throws on a tampered, truncated or foreign ciphertext; never returns garbage. */
  decrypt(envelope: string): string;
  isEnvelope(value: unknown): value is string;
  /** True when the value was sealed under a key other than the current one (rotation). */
  needsReseal(envelope: string): boolean;
}

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class DecryptionError extends Error {}

export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function createFieldCipher(primaryKeyB64: string, oldKeysB64: string[] = []): FieldCipher {
  const primary = decodeKey(primaryKeyB64);
  const primaryId = keyId(primary);
  const keys = new Map<string, Buffer>([[primaryId, primary]]);
  for (const k of oldKeysB64) {
    const key = decodeKey(k);
    keys.set(keyId(key), key);
  }

  return {
    encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', primary, iv);
      // The key id is authenticated too, so a value cannot be moved under another key's name.
      cipher.setAAD(Buffer.from(primaryId));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const sealed = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
      return `${PREFIX}${primaryId}:${sealed}`;
    },
    decrypt(envelope) {
      if (!envelope.startsWith(PREFIX)) throw new DecryptionError('not an encrypted value');
      const rest = envelope.slice(PREFIX.length);
      const colon = rest.indexOf(':');
      const id = rest.slice(0, colon);
      const key = colon > 0 ? keys.get(id) : undefined;
      if (!key) throw new DecryptionError(`no key with id ${id}`);
      const raw = Buffer.from(rest.slice(colon + 1), 'base64');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new DecryptionError('truncated value');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(id));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new DecryptionError('value failed authentication');
      }
    },
    isEnvelope(value): value is string {
      return typeof value === 'string' && value.startsWith(PREFIX);
    },
    needsReseal(envelope) {
      return !envelope.startsWith(`${PREFIX}${primaryId}:`);
    },
  };
}

function decodeKey(b64: string): Buffer {
  const key = Buffer.from(b64, 'base64');
  if (key.length !== 32) throw new Error('encryption keys must be 32 bytes, base64-encoded');
  return key;
}
