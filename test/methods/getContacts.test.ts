import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, TRANSPORTS, type Transport } from '../helpers/call.js';
import { seedContactWorld, T0 } from '../helpers/contactWorld.js';
import type { Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

let t: TestApp;
let owner: Tenant;
let other: Tenant;
let invitedBot: number;
let ids: Record<string, number>;

beforeAll(async () => {
  // many calls per test file: the rate limit is tested elsewhere
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  ({ owner, other, invitedBot, ids } = await seedContactWorld(t.db));
});
afterAll(() => t.close());

const get = (params: Record<string, unknown>, via: Transport = 'query') =>
  call(t.app, 'getContacts', params, { key: owner.apiKey, via });
const count = (params: Record<string, unknown>, via: Transport = 'query') =>
  call(t.app, 'getNumberOfContacts', params, { key: owner.apiKey, via });
const idsOf = (body: { data: { id: number }[] }) => body.data.map((c) => c.id);

const ownIds = () => [ids.telegram, ids.max, ids.vk, ids.otherBot, ids.viber, ids.web];
const botAIds = () => [ids.telegram, ids.max, ids.vk, ids.viber, ids.web];

describe('getContacts scope (getContacts)', () => {
  it.each(TRANSPORTS)(
    "returns all own bots' contacts in ascending id, previews, other accounts and invited projects left out, via %s",
    async (via) => {
      const res = await get({}, via);
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual(ownIds());
      expect(res.body.meta.total).toBe(6);
    },
  );

  it.each(TRANSPORTS)('returns only the given bot’s contacts via %s', async (via) => {
    const res = await get({ bot_id: owner.botId }, via);
    expect(idsOf(res.body)).toEqual(botAIds());
    expect(res.body.meta.total).toBe(5);
    expect((await count({ bot_id: owner.botId }, via)).body).toEqual({ count: 5 });
  });

  it.each([
    ['another account’s bot', () => other.botId],
    ['a bot reached only as a team member', () => invitedBot],
    ['a bot that does not exist', () => 999_999_999],
  ])('gives an empty list and a zero count, not an error, for %s (rule 4)', async (_, botId) => {
    const page = await get({ bot_id: botId() });
    expect(page.status).toBe(200);
    expect(page.body.data).toEqual([]);
    expect(page.body.meta.total).toBe(0);
    const offset = await get({ bot_id: botId(), offset: 0 });
    expect(offset.body).toEqual({ data: [], meta: { offset: 0, limit: 100, total: 0 } });
    expect((await count({ bot_id: botId() })).body).toEqual({ count: 0 });
  });
});

describe('contact shape in getContacts (the contact shape)', () => {
  it('renders a Telegram contact with every key, telegram_id as a string and utm from utm_* variables', async () => {
    const res = await get({ bot_id: owner.botId, count: 1 });
    expect(res.body.data[0]).toEqual({
      id: ids.telegram,
      bot_id: owner.botId,
      phone: '79991234567',
      email: 'ada@example.test',
      name: 'Ada',
      address: 'London',
      messenger: 'telegram',
      utm: { utm_source: 'ads', utm_medium: 'cpc' },
      avatar: 'https://cdn.example.test/a.jpg',
      telegram_id: '4503599627370497',
      telegram_username: 'ada',
      vk_user_id: null,
      created_at: '2024-01-01T00:00:00.000Z',
      unsubscribed_at: '2024-01-01T00:01:40.000Z',
      tags: ['vip', 'beta'],
      variables: [
        {
          id: expect.any(Number),
          name: 'utm_source',
          value: 'ads',
          type: 0,
          schema_id: null,
          deletable: true,
          payload: null,
        },
        {
          id: expect.any(Number),
          name: 'city',
          value: 'London',
          type: 0,
          schema_id: null,
          deletable: true,
          payload: null,
        },
        {
          id: expect.any(Number),
          name: 'utm_medium',
          value: 'cpc',
          type: 0,
          schema_id: null,
          deletable: true,
          payload: null,
        },
        {
          id: expect.any(Number),
          name: 'photo',
          value: 'https://cdn.example.test/p.jpg',
          type: 1,
          schema_id: null,
          deletable: true,
          payload: null,
        },
      ],
    });
  });

  it('shows each messenger’s own keys only, vk_user_id on every contact and utm [] without utm variables', async () => {
    const res = await get({ bot_id: owner.botId, offset: 1 });
    const byMessenger = Object.fromEntries(
      res.body.data.map((c: Record<string, unknown>) => [c.messenger, c]),
    );
    const common = [
      'id',
      'bot_id',
      'phone',
      'email',
      'name',
      'address',
      'messenger',
      'utm',
      'avatar',
    ];
    const tail = ['created_at', 'unsubscribed_at', 'tags', 'variables'];
    expect(Object.keys(byMessenger.max)).toEqual([
      ...common,
      'max_user_id',
      'max_username',
      'vk_user_id',
      ...tail,
    ]);
    expect(Object.keys(byMessenger.vk)).toEqual([...common, 'vk_user_id', ...tail]);
    expect(Object.keys(byMessenger.viber)).toEqual([...common, 'vk_user_id', 'viber_id', ...tail]);
    expect(Object.keys(byMessenger.web)).toEqual([...common, 'vk_user_id', ...tail]);
    expect(byMessenger.max).toMatchObject({
      max_user_id: 777,
      max_username: 'maxi',
      vk_user_id: null,
      utm: [],
    });
    expect(byMessenger.vk).toMatchObject({ vk_user_id: 888, utm: [], tags: [], variables: [] });
    expect(byMessenger.viber).toMatchObject({ viber_id: 'vb==1', vk_user_id: null });
    expect(byMessenger.web).toMatchObject({ vk_user_id: null, unsubscribed_at: null });
  });
});

describe('date windows (getContacts: inclusive Unix seconds)', () => {
  it.each([
    [{ date_from: T0 + 10 }, () => [ids.max, ids.vk, ids.viber, ids.web]],
    [{ date_from: T0 + 11 }, () => [ids.vk, ids.viber, ids.web]],
    [{ date_to: T0 + 10 }, () => [ids.telegram, ids.max]],
    [{ date_to: T0 + 9 }, () => [ids.telegram]],
    // created at T0+30.5: inside date_to = T0+30 (the whole second counts), outside date_from = T0+31
    [{ date_to: T0 + 30 }, () => [ids.telegram, ids.max, ids.vk, ids.viber]],
    [{ date_from: T0 + 30, date_to: T0 + 30 }, () => [ids.viber]],
    [{ date_from: T0 + 31 }, () => [ids.web]],
    [{ date_from: T0 + 20, date_to: T0 + 20 }, () => [ids.vk]],
    [{ date_from: T0 + 41, date_to: T0 + 40 }, () => []],
    // the last second of 9999, the highest bound allowed: a second later has no ISO text
    [{ date_to: 253_402_300_799 }, () => [ids.telegram, ids.max, ids.vk, ids.viber, ids.web]],
    [{ date_from: 253_402_300_799 }, () => []],
  ])('with %o lists exactly the contacts inside the window', async (window, expected) => {
    for (const via of TRANSPORTS) {
      const page = await get({ bot_id: owner.botId, ...window }, via);
      expect(idsOf(page.body)).toEqual(expected());
      expect(page.body.meta.total).toBe(expected().length);
      const offset = await get({ bot_id: owner.botId, offset: 0, ...window }, via);
      expect(idsOf(offset.body)).toEqual(expected());
      expect((await count({ bot_id: owner.botId, ...window }, via)).body).toEqual({
        count: expected().length,
      });
    }
  });

  it('leaves preview contacts out of windows that contain them', async () => {
    const res = await get({ bot_id: owner.botId, date_from: T0 + 15, date_to: T0 + 15 });
    expect(res.body.data).toEqual([]);
    expect(
      (await count({ bot_id: owner.botId, date_from: T0 + 15, date_to: T0 + 15 })).body,
    ).toEqual({ count: 0 });
  });
});

describe('page mode (getContacts.5)', () => {
  it.each(TRANSPORTS)('pages with count and page and builds the envelope via %s', async (via) => {
    const res = await get({ bot_id: owner.botId, count: 2, page: 2, with: 'tags' }, via);
    const path = 'http://api.test/api/v1/getContacts';
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual([ids.vk, ids.viber]);
    expect(res.body.links).toEqual({
      first: `${path}?page=1`,
      last: `${path}?page=3`,
      prev: `${path}?page=1`,
      next: `${path}?page=3`,
    });
    expect(res.body.meta).toEqual({
      current_page: 2,
      from: 3,
      last_page: 3,
      links: [
        { url: `${path}?page=1`, label: '&laquo; Previous', active: false },
        { url: `${path}?page=1`, label: '1', active: false },
        { url: `${path}?page=2`, label: '2', active: true },
        { url: `${path}?page=3`, label: '3', active: false },
        { url: `${path}?page=3`, label: 'Next &raquo;', active: false },
      ],
      path,
      per_page: 2,
      to: 4,
      total: 5,
    });
  });

  it('defaults to 20 per page, page 1, and null prev / next at the ends', async () => {
    const res = await get({});
    expect(res.body.meta).toMatchObject({
      current_page: 1,
      per_page: 20,
      from: 1,
      to: 6,
      last_page: 1,
    });
    expect(res.body.links.prev).toBeNull();
    expect(res.body.links.next).toBeNull();
    expect(res.body.meta.links[0]).toEqual({ url: null, label: '&laquo; Previous', active: false });
    expect(res.body.meta.links.at(-1)).toEqual({ url: null, label: 'Next &raquo;', active: false });
  });

  it('answers an empty page past the end', async () => {
    const res = await get({ bot_id: owner.botId, count: 2, page: 9 });
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({ from: null, to: null, total: 5, last_page: 3 });
  });
});

describe('offset mode (getContacts)', () => {
  it.each(TRANSPORTS)(
    'is chosen by offset and answers {data, meta: {offset, limit, total}} via %s',
    async (via) => {
      const res = await get({ bot_id: owner.botId, offset: 1, limit: 2 }, via);
      expect(res.body).toEqual({
        data: expect.any(Array),
        meta: { offset: 1, limit: 2, total: 5 },
      });
      expect(idsOf(res.body)).toEqual([ids.max, ids.vk]);
    },
  );

  it('is chosen by limit alone, starting at offset 0', async () => {
    const res = await get({ bot_id: owner.botId, limit: 3 });
    expect(res.body.meta).toEqual({ offset: 0, limit: 3, total: 5 });
    expect(idsOf(res.body)).toEqual([ids.telegram, ids.max, ids.vk]);
  });

  it('defaults limit to 100 and ignores page and count, even invalid ones', async () => {
    const res = await get({ bot_id: owner.botId, offset: 4, page: 0, count: 9999 });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ offset: 4, limit: 100, total: 5 });
    expect(idsOf(res.body)).toEqual([ids.web]);
  });
});

describe('getContacts validation (getContacts, the limits)', () => {
  it.each([
    [{ count: 0 }, 'count'],
    [{ count: 501 }, 'count'],
    [{ page: 0 }, 'page'],
    [{ page: 'two' }, 'page'],
    [{ limit: 0 }, 'limit'],
    [{ limit: 1001 }, 'limit'],
    [{ offset: -1 }, 'offset'],
    [{ offset: 'x' }, 'offset'],
    [{ date_from: 'yesterday' }, 'date_from'],
    [{ date_to: 253_402_300_800 }, 'date_to'],
    [{ bot_id: '1e3' }, 'bot_id'],
  ])('answers 422 for %o under its key', async (params, key) => {
    for (const via of TRANSPORTS) {
      const res = await get(params, via);
      expect(res.status).toBe(422);
      expect(res.body.errors).toHaveProperty([key]);
    }
  });

  it('accepts the limits themselves', async () => {
    for (const params of [
      { count: 1 },
      { count: 500 },
      { limit: 1 },
      { limit: 1000 },
      { offset: 0 },
    ]) {
      expect((await get(params)).status).toBe(200);
    }
  });

  it('accepts and ignores `with` in any form', async () => {
    const plain = await get({ bot_id: owner.botId });
    for (const w of ['tags', ['tags', 'variables'], 'anything']) {
      const res = await get({ bot_id: owner.botId, with: w });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(plain.body.data);
    }
  });
});
