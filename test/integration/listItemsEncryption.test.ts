import { beforeAll, describe, expect, it } from 'vitest';
import { createFieldCipher, keyId } from '../../src/lists/encryption/cipher.js';
import { resealEncryptedValues } from '../../src/lists/encryption/reseal.js';
import { call, TRANSPORTS } from '../helpers/call.js';
import { makeList, rawRecord, storedValues, type TestList } from '../helpers/lists.js';
import { startTestApp } from '../helpers/testApp.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

let list: TestList;

const t = testAppForFile({ tenants: ['owner'] });
beforeAll(async () => {
  list = await makeList(t.db, t.owner, [
    { slug: 'name', type: 'string' },
    { slug: 'secret', type: 'string', is_encryptable: true },
    { slug: 'salary', type: 'money', is_encryptable: true, is_hidden: true },
  ]);
});

const key = () => t.owner.apiKey;

describe('encrypted fields (is_encryptable: stored encrypted, shown decrypted, never filtered)', () => {
  it.each(TRANSPORTS)(
    'stores the value encrypted at rest and returns it decrypted via %s',
    async (via) => {
      const plaintext = `very secret ${via} passphrase`;
      const res = await call(
        t.app,
        'addListItem',
        { schema_id: list.id, data: { name: 'n', secret: plaintext, salary: '1234.56' } },
        { key: key(), via },
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ secret: plaintext, salary: 1234.56 });
      const raw = await rawRecord(t.db, res.body.data.id);
      const rowText = String(raw!.json);
      expect(rowText).not.toContain(plaintext);
      expect(rowText).not.toContain('1234.56');
      expect((raw!.data as Record<string, string>).secret).toMatch(/^enc:v1:[0-9a-f]{8}:/);
      // encrypted values never get a slot, so no plaintext copy sits in an index either
      expect(raw!.t2).toBeNull();
    },
  );

  it('returns hidden and encrypted fields decrypted from getListItems and updateListItem', async () => {
    const added = await call(
      t.app,
      'addListItem',
      { schema_id: list.id, data: { name: 'u', secret: 'a' } },
      { key: key() },
    );
    const updated = await call(
      t.app,
      'updateListItem',
      { item_id: added.body.data.id, data: { secret: 'b', salary: 5 } },
      { key: key() },
    );
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'u', secret: 'b', salary: 5 });
    const page = await call(
      t.app,
      'getListItems',
      { schema_id: list.id, filters: { name: 'u' } },
      { key: key() },
    );
    expect(page.body.data).toEqual([expect.objectContaining({ secret: 'b', salary: 5 })]);
  });

  it('silently skips filter conditions on encrypted fields', async () => {
    const res = await call(
      t.app,
      'getListItems',
      { schema_id: list.id, filters: { secret: 'no such value', salary: 'like,%x' } },
      { key: key() },
    );
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBeGreaterThan(0);
  });

  it('refuses order_by on an encrypted field with 422 under order_by', async () => {
    const res = await call(
      t.app,
      'getListItems',
      { schema_id: list.id, order_by: 'secret,asc' },
      { key: key() },
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['order_by']);
  });

  it('reads values sealed under a retired key listed in ENCRYPTION_OLD_KEYS (rotation)', async () => {
    const added = await call(
      t.app,
      'addListItem',
      { schema_id: list.id, data: { name: 'rot', secret: 'old key value' } },
      { key: key() },
    );
    const newKey = Buffer.alloc(32, 9).toString('base64');
    const rotated = await startTestApp({
      database: t.database,
      env: { ENCRYPTION_KEY: newKey, ENCRYPTION_OLD_KEYS: t.config.encryptionKey! },
    });
    try {
      const page = await call(
        rotated.app,
        'getListItems',
        { schema_id: list.id, filters: { name: 'rot' } },
        { key: key() },
      );
      expect(page.body.data[0].secret).toBe('old key value');
      const updated = await call(
        rotated.app,
        'updateListItem',
        { item_id: added.body.data.id, data: { secret: 'new key value' } },
        { key: key() },
      );
      expect(updated.body.data.secret).toBe('new key value');
      const raw = await rawRecord(t.db, added.body.data.id);
      const sealed = (raw!.data as Record<string, string>).secret!;
      // the rewritten value names the new key; the old one is no longer needed for it
      expect(sealed.split(':')[2]).toBe(keyId(Buffer.from(newKey, 'base64')));
      expect(sealed.split(':')[2]).not.toBe(keyId(Buffer.from(t.config.encryptionKey!, 'base64')));
      expect(rotated.deps.cipher.decrypt(sealed)).toBe('"new key value"');
    } finally {
      await rotated.close();
    }
  });

  it('re-seals values under retired keys with the current key, so the old key can be dropped', async () => {
    const oldKey = t.config.encryptionKey!;
    const added = await call(
      t.app,
      'addListItem',
      { schema_id: list.id, data: { name: 'reseal', secret: 'rotate me', salary: 7 } },
      { key: key() },
    );
    const newKey = Buffer.alloc(32, 11).toString('base64');
    // every key that still seals something is listed, as the rotation procedure says
    const earlierRotation = Buffer.alloc(32, 9).toString('base64');
    const rotating = createFieldCipher(newKey, [oldKey, earlierRotation]);
    const first = await resealEncryptedValues(t.db, rotating, 2);
    expect(first.resealed).toBeGreaterThan(0);
    expect((await resealEncryptedValues(t.db, rotating, 2)).resealed).toBe(0);
    const onlyNew = createFieldCipher(newKey);
    const raw = (await rawRecord(t.db, added.body.data.id))!.data as Record<string, string>;
    expect(JSON.parse(onlyNew.decrypt(raw.secret!))).toBe('rotate me');
    expect(JSON.parse(onlyNew.decrypt(raw.salary!))).toBe('7');
    // a value without encryption lives in its slot (thin documents)
    expect((await storedValues(t.db, added.body.data.id))!.name).toBe('reseal');
  });
});
