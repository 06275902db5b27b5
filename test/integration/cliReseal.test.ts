import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFieldCipher } from '../../src/lists/encryption/cipher.js';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { makeList, rawRecord } from '../helpers/lists.js';
import { ensureBuilt, runCli } from '../helpers/processes.js';
import { startTestApp, TEST_ENCRYPTION_KEY, type TestApp } from '../helpers/testApp.js';

// Key rotation (docs/records.md): a value sealed under the old key is re-sealed under the
// new one by `lists reseal`, and stays readable by a server that holds only the new key.
const NEW_KEY = randomBytes(32).toString('base64');
let oldApp: TestApp;
let tenant: Tenant;

beforeAll(async () => {
  await ensureBuilt();
  oldApp = await startTestApp();
  tenant = await makeTenant(oldApp.db);
}, 180_000);
afterAll(() => oldApp?.close());

describe('lists reseal (operator CLI, key rotation)', () => {
  it('re-seals values under the new key so the old key can be dropped', async () => {
    const list = await makeList(oldApp.db, tenant, [
      { slug: 'secret', type: 'string', is_encryptable: true },
    ]);
    const added = await call(
      oldApp.app,
      'addListItem',
      { schema_id: list.id, data: { secret: 'rotate me' } },
      { key: tenant.apiKey },
    );
    expect(added.status).toBe(201);
    const itemId = added.body.data.id as string;

    const env = {
      DATABASE_URL: oldApp.database.url,
      ENCRYPTION_KEY: NEW_KEY,
      ENCRYPTION_OLD_KEYS: TEST_ENCRYPTION_KEY,
    };
    const result = await runCli(['lists', 'reseal', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ resealed: 1 });

    const row = await rawRecord(oldApp.db, itemId);
    const sealed = String((row?.data as Record<string, unknown>).secret);
    expect(sealed).not.toContain('rotate me');
    // values are sealed as JSON text (storedRow.ts)
    expect(JSON.parse(createFieldCipher(NEW_KEY).decrypt(sealed))).toBe('rotate me');
    expect(() => createFieldCipher(TEST_ENCRYPTION_KEY).decrypt(sealed)).toThrow();

    const again = await runCli(['lists', 'reseal', '--json'], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ resealed: 0 });
  }, 180_000);
});
