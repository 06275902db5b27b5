import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, TRANSPORTS } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

let t: TestApp;
let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await makeTenant(t.db, { name: 'Ada', email: 'ada@example.test' });
  other = await makeTenant(t.db, { name: 'Grace', email: 'grace@example.test' });
});
afterAll(() => t.close());

describe("getMe: the key holder's account", () => {
  it.each(TRANSPORTS)('returns the account the key belongs to via %s', async (via) => {
    const res = await call(t.app, 'getMe', {}, { key: tenant.apiKey, via });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        id: tenant.accountId,
        email: 'ada@example.test',
        name: 'Ada',
        plan: 'pro',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    });
  });

  it('answers each key with its own account, never another', async () => {
    const mine = await call(t.app, 'getMe', {}, { key: tenant.apiKey });
    const theirs = await call(t.app, 'getMe', {}, { key: other.apiKey });
    expect(mine.body.data.id).toBe(tenant.accountId);
    expect(theirs.body.data).toMatchObject({ id: other.accountId, email: 'grace@example.test' });
  });

  it('ignores parameters it does not take', async () => {
    const res = await call(t.app, 'getMe', { id: other.accountId }, { key: tenant.apiKey });
    expect([res.status, res.body.data.id]).toEqual([200, tenant.accountId]);
  });

  it('answers 401 without a key', async () => {
    const res = await call(t.app, 'getMe', {}, {});
    expect(res.status).toBe(401);
  });
});
