import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, TRANSPORTS, type Transport } from '../helpers/call.js';
import { seedContact } from '../helpers/contacts.js';
import { createBot, makeInvitedProject, makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

let t: TestApp;
let owner: Tenant;
let other: Tenant;
let botB: number;
let invitedBot: number;

/** 2024-01-01T00:00:00Z */
const T0 = 1_704_067_200;
const at = (seconds: number) => new Date((T0 + seconds) * 1000);

const ids: Record<string, number> = {};

beforeAll(async () => {
  // many calls per test file: the rate limit (the limits) is tested elsewhere
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  owner = await makeTenant(t.db);
  other = await makeTenant(t.db);
  botB = (await createBot(t.db, owner.projectUuid, 'B')).id;
  invitedBot = (await makeInvitedProject(t.db, other, owner)).botId;

  ids.telegram = await seedContact(t.db, owner.botId, {
    messenger: 'telegram',
    telegram_id: 4_503_599_627_370_497,
    telegram_username: 'ada',
    name: 'Ada',
    phone: '79991234567',
    email: 'ada@example.test',
    address: 'London',
    avatar: 'https://cdn.example.test/a.jpg',
    tags: ['vip', 'beta'],
    created_at: at(0),
    unsubscribed_at: at(100),
    variables: [
      { name: 'utm_source', value: 'ads' },
      { name: 'city', value: 'London' },
      { name: 'utm_medium', value: 'cpc' },
      { name: 'photo', value: 'https://cdn.example.test/p.jpg', type: 1 },
    ],
  });
  ids.max = await seedContact(t.db, owner.botId, {
    messenger: 'max',
    max_user_id: 777,
    max_username: 'maxi',
    created_at: at(10),
  });
  ids.preview = await seedContact(t.db, owner.botId, { preview: true, created_at: at(15) });
  ids.vk = await seedContact(t.db, owner.botId, {
    messenger: 'vk',
    vk_user_id: 888,
    created_at: at(20),
  });
  ids.otherBot = await seedContact(t.db, botB, { created_at: at(25) });
  ids.viber = await seedContact(t.db, owner.botId, {
    messenger: 'viber',
    viber_id: 'vb==1',
    created_at: new Date((T0 + 30.5) * 1000),
  });
  ids.web = await seedContact(t.db, owner.botId, { messenger: 'web', created_at: at(40) });
  ids.foreign = await seedContact(t.db, other.botId, { created_at: at(5) });
  ids.invited = await seedContact(t.db, invitedBot, { created_at: at(5) });
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
