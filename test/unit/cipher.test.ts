import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createFieldCipher, DecryptionError, keyId } from '../../src/lists/encryption/cipher.js';

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');

describe('field cipher (the field shape is_encryptable: stored encrypted, returned decrypted)', () => {
  it('round-trips text, including empty and non-ASCII values', () => {
    const cipher = createFieldCipher(keyA);
    for (const text of ['', 'hello', 'Grüße 👋', 'x'.repeat(10_000)]) {
      const sealed = cipher.encrypt(text);
      expect(cipher.isEnvelope(sealed)).toBe(true);
      expect(sealed).not.toContain(text || '\u0000');
      expect(cipher.decrypt(sealed)).toBe(text);
    }
  });

  it('uses a fresh IV each time, so equal values do not look equal', () => {
    const cipher = createFieldCipher(keyA);
    expect(cipher.encrypt('same')).not.toBe(cipher.encrypt('same'));
  });

  it('names the sealing key in the envelope', () => {
    const sealed = createFieldCipher(keyA).encrypt('v');
    expect(sealed.startsWith(`enc:v1:${keyId(Buffer.from(keyA, 'base64'))}:`)).toBe(true);
  });

  it('rejects a tampered value instead of returning garbage', () => {
    const cipher = createFieldCipher(keyA);
    const sealed = cipher.encrypt('secret');
    const raw = Buffer.from(sealed.split(':')[3]!, 'base64');
    raw[raw.length - 1]! ^= 1;
    const tampered = sealed.split(':').slice(0, 3).join(':') + ':' + raw.toString('base64');
    expect(() => cipher.decrypt(tampered)).toThrow(DecryptionError);
  });

  it('rejects truncated, foreign and plain values', () => {
    const cipher = createFieldCipher(keyA);
    const foreign = createFieldCipher(keyB).encrypt('x');
    expect(() => cipher.decrypt(foreign)).toThrow(DecryptionError);
    expect(() => cipher.decrypt(cipher.encrypt('x').slice(0, 20))).toThrow(DecryptionError);
    expect(() => cipher.decrypt('plain text')).toThrow(DecryptionError);
    expect(cipher.isEnvelope('plain text')).toBe(false);
    expect(cipher.isEnvelope(42)).toBe(false);
  });

  it('opens values sealed with a retired key after rotation, and seals with the new key', () => {
    const before = createFieldCipher(keyA).encrypt('kept');
    const after = createFieldCipher(keyB, [keyA]);
    expect(after.decrypt(before)).toBe('kept');
    expect(after.encrypt('new').includes(keyId(Buffer.from(keyB, 'base64')))).toBe(true);
  });

  it('binds the key id: a value relabelled with another known key id does not open', () => {
    const both = createFieldCipher(keyA, [keyB]);
    const sealed = both.encrypt('x');
    const relabelled = sealed.replace(
      keyId(Buffer.from(keyA, 'base64')),
      keyId(Buffer.from(keyB, 'base64')),
    );
    expect(() => both.decrypt(relabelled)).toThrow(DecryptionError);
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => createFieldCipher(randomBytes(16).toString('base64'))).toThrow();
    expect(() => createFieldCipher(keyA, ['short'])).toThrow();
  });
});
