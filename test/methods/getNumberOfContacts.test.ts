import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, TRANSPORTS, type Transport } from '../helpers/call.js';
import { seedContactWorld, T0 } from '../helpers/contactWorld.js';
import type { Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

let t: TestApp;
let owner: Tenant;
let botB: number;

beforeAll(async () => {
  // many calls per test file: the rate limit is tested elsewhere
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  ({ owner, botB } = await seedContactWorld(t.db));
});
afterAll(() => t.close());

const get = (params: Record<string, unknown>, via: Transport = 'query') =>
  call(t.app, 'getContacts', params, { key: owner.apiKey, via });
const count = (params: Record<string, unknown>, via: Transport = 'query') =>
  call(t.app, 'getNumberOfContacts', params, { key: owner.apiKey, via });
describe('getNumberOfContacts (getNumberOfContacts)', () => {
  it.each(TRANSPORTS)('answers {count} at the top level for all own bots via %s', async (via) => {
    const res = await count({}, via);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 6 });
  });

  it('counts the same as getContacts totals for every filter', async () => {
    for (const params of [{}, { bot_id: botB }, { date_from: T0 + 20 }, { date_to: T0 + 5 }]) {
      expect((await count(params)).body.count).toBe((await get(params)).body.meta.total);
    }
  });

  it.each([
    [{ bot_id: 'abc' }, 'bot_id'],
    [{ date_from: -1 }, 'date_from'],
    [{ date_to: '1.5' }, 'date_to'],
  ])('answers 422 for %o', async (params, key) => {
    const res = await count(params);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([key]);
  });
});
