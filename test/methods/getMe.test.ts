import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, TRANSPORTS } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

let t: TestApp;
let tenant: Tenant;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await makeTenant(t.db, { name: 'Ada', email: 'ada@example.test' });
});
afterAll(() => t.close());

describe("getMe (decisions: the key holder's account)", () => {
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
});
