import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { call, TRANSPORTS } from '../helpers/call.js';
import { scalar, seedContact, subscriberCount } from '../helpers/contacts.js';
import { makeInvitedProject, type Tenant } from '../helpers/factories.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';

let uniqueId = 7_000_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const nextTelegramId = () => uniqueId++;

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner', 'other'] });

const upsert = (params: Record<string, unknown>, via: (typeof TRANSPORTS)[number] = 'json') =>
  call(t.app, 'createOrUpdateContact', params, { key: t.owner.apiKey, via });

describe('createOrUpdateContact creates (createOrUpdateContact)', () => {
  it.each(TRANSPORTS)(
    'answers 201 with the contact in the exact shape of the contact shape via %s',
    async (via) => {
      const telegramId = nextTelegramId();
      const res = await upsert(
        {
          bot_id: t.owner.botId,
          messenger: 'telegram',
          telegram_id: telegramId,
          name: 'Ada Lovelace',
          telegram_username: 'ada',
          phone: '+79991234567',
          email: 'ada@example.test',
          address: '12 St James Square',
          tags: ['vip', 'beta'],
        },
        via,
      );
      expect(res.status).toBe(201);
      expect(Object.keys(res.body.data)).toEqual([
        'id',
        'bot_id',
        'phone',
        'email',
        'name',
        'address',
        'messenger',
        'utm',
        'avatar',
        'telegram_id',
        'telegram_username',
        'vk_user_id',
        'created_at',
        'unsubscribed_at',
        'tags',
        'variables',
      ]);
      expect(res.body.data).toEqual({
        id: expect.any(Number),
        bot_id: t.owner.botId,
        phone: '79991234567',
        email: 'ada@example.test',
        name: 'Ada Lovelace',
        address: '12 St James Square',
        messenger: 'telegram',
        utm: [],
        avatar: null,
        telegram_id: String(telegramId),
        telegram_username: 'ada',
        vk_user_id: null,
        created_at: expect.stringMatching(ISO),
        unsubscribed_at: null,
        tags: ['vip', 'beta'],
        variables: [],
      });
    },
  );

  it('raises the bot subscriber count by one and records "Created from API" as first message', async () => {
    const before = await subscriberCount(t.db, t.owner.botId);
    const res = await upsert({
      bot_id: t.owner.botId,
      messenger: 'telegram',
      telegram_id: nextTelegramId(),
      name: 'New',
    });
    expect(res.status).toBe(201);
    expect(await subscriberCount(t.db, t.owner.botId)).toBe(before + 1);
    const [row] = await queryRows<{ first_message: string }>(
      t.db,
      sql`SELECT first_message FROM contacts WHERE id = ${res.body.data.id}`,
    );
    expect(row?.first_message).toBe('Created from API');
  });

  it.each([
    ['max', { max_id: 501 }, { max_user_id: 501, max_username: 'maxi', vk_user_id: null }],
    ['max', { max_user_id: 502 }, { max_user_id: 502, max_username: 'maxi', vk_user_id: null }],
    ['vk', { vk_id: 601 }, { vk_user_id: 601 }],
    ['vk', { vk_user_id: 602 }, { vk_user_id: 602 }],
    ['viber', { viber_id: 'vb-701' }, { vk_user_id: null, viber_id: 'vb-701' }],
  ] as const)(
    'creates a %s contact by %o and shows only that messenger’s keys (the contact shape)',
    async (messenger, idParams, expected) => {
      const res = await upsert({
        bot_id: t.owner.botId,
        messenger,
        name: 'M',
        max_username: 'maxi',
        telegram_username: 'never-shown',
        ...idParams,
      });
      expect(res.status).toBe(201);
      const data = res.body.data;
      for (const key of [
        'telegram_id',
        'telegram_username',
        'max_user_id',
        'max_username',
        'viber_id',
      ]) {
        if (!(key in expected)) expect(data).not.toHaveProperty(key);
      }
      expect(data).toMatchObject({ messenger, ...expected });
      expect(data).toHaveProperty('vk_user_id');
    },
  );

  it('keeps contacts apart per bot and per messenger for the same numeric ID', async () => {
    const id = nextTelegramId();
    const second = await createBotFor(t.owner);
    const a = await upsert({
      bot_id: t.owner.botId,
      messenger: 'telegram',
      telegram_id: id,
      name: 'A',
    });
    const b = await upsert({ bot_id: second, messenger: 'telegram', telegram_id: id, name: 'B' });
    const c = await upsert({ bot_id: t.owner.botId, messenger: 'vk', vk_id: id, name: 'C' });
    expect([a.status, b.status, c.status]).toEqual([201, 201, 201]);
    expect(new Set([a.body.data.id, b.body.data.id, c.body.data.id]).size).toBe(3);
  });
});

describe('createOrUpdateContact updates (createOrUpdateContact)', () => {
  it.each(TRANSPORTS)(
    'answers 200, replaces name and non-empty fields, keeps the rest, via %s',
    async (via) => {
      const telegramId = nextTelegramId();
      const first = await upsert({
        bot_id: t.owner.botId,
        messenger: 'telegram',
        telegram_id: telegramId,
        name: 'Before',
        telegram_username: 'before',
        phone: '+111111111',
        email: 'before@example.test',
        address: 'Old street',
        tags: ['keep'],
      });
      const before = await subscriberCount(t.db, t.owner.botId);
      const res = await upsert(
        {
          bot_id: t.owner.botId,
          messenger: 'telegram',
          telegram_id: telegramId,
          name: 'After',
          telegram_username: '',
          phone: '',
          email: 'after@example.test',
          address: '',
        },
        via,
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: first.body.data.id,
        name: 'After',
        telegram_username: 'before',
        phone: '111111111',
        email: 'after@example.test',
        address: 'Old street',
        tags: ['keep'],
      });
      expect(await subscriberCount(t.db, t.owner.botId)).toBe(before);
    },
  );

  it('treats phone null as not passed (createOrUpdateContact)', async () => {
    const telegramId = nextTelegramId();
    await upsert({
      bot_id: t.owner.botId,
      messenger: 'telegram',
      telegram_id: telegramId,
      name: 'P',
      phone: '+222222222',
    });
    const res = await upsert({
      bot_id: t.owner.botId,
      messenger: 'telegram',
      telegram_id: telegramId,
      name: 'P',
      phone: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.phone).toBe('222222222');
  });

  it('replaces tags when passed and clears them with [] (JSON) or empty text (form, query)', async () => {
    const telegramId = nextTelegramId();
    const base = {
      bot_id: t.owner.botId,
      messenger: 'telegram',
      telegram_id: telegramId,
      name: 'T',
    };
    await upsert({ ...base, tags: ['a', 'b'] });
    expect((await upsert({ ...base, tags: ['c', 'c', ' d '] })).body.data.tags).toEqual(['c', 'd']);
    expect((await upsert(base)).body.data.tags).toEqual(['c', 'd']);
    expect((await upsert({ ...base, tags: [] })).body.data.tags).toEqual([]);
    await upsert({ ...base, tags: ['e'] });
    expect((await upsert({ ...base, tags: '' }, 'form')).body.data.tags).toEqual([]);
    await upsert({ ...base, tags: ['f'] });
    expect((await upsert({ ...base, tags: '' }, 'query')).body.data.tags).toEqual([]);
  });

  it('leaves variables untouched and shows utm_* variables in utm', async () => {
    const telegramId = nextTelegramId();
    await seedContact(t.db, t.owner.botId, {
      telegram_id: telegramId,
      variables: [
        { name: 'utm_source', value: 'ads' },
        { name: 'city', value: 'London' },
      ],
    });
    const res = await upsert({
      bot_id: t.owner.botId,
      messenger: 'telegram',
      telegram_id: telegramId,
      name: 'V',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.utm).toEqual({ utm_source: 'ads' });
    expect(res.body.data.variables).toEqual([
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
    ]);
  });

  it('finds the MAX contact by max_user_id when it was created with max_id', async () => {
    const a = await upsert({ bot_id: t.owner.botId, messenger: 'max', max_id: 9901, name: 'X' });
    const b = await upsert({
      bot_id: t.owner.botId,
      messenger: 'max',
      max_user_id: 9901,
      name: 'Y',
    });
    expect([a.status, b.status]).toEqual([201, 200]);
    expect(b.body.data).toMatchObject({ id: a.body.data.id, name: 'Y' });
  });
});

describe('createOrUpdateContact refuses (createOrUpdateContact, the error rules)', () => {
  it.each(TRANSPORTS)(
    'answers 404 with errors.bot_id for another account’s bot via %s',
    async (via) => {
      const res = await upsert(
        { bot_id: t.other.botId, messenger: 'telegram', telegram_id: nextTelegramId(), name: 'X' },
        via,
      );
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        message: expect.any(String),
        errors: { bot_id: [expect.any(String)] },
      });
    },
  );

  it('answers 404 for a bot that does not exist and for a bot reached only as a team member', async () => {
    const invited = await makeInvitedProject(t.db, t.other, t.owner);
    for (const botId of [invited.botId, 987654321]) {
      const res = await upsert({
        bot_id: botId,
        messenger: 'telegram',
        telegram_id: nextTelegramId(),
        name: 'X',
      });
      expect(res.status).toBe(404);
      expect(res.body.errors).toHaveProperty('bot_id');
    }
    expect(
      await scalar(t.db, sql`SELECT count(*) AS n FROM contacts WHERE bot_id = ${invited.botId}`),
    ).toBe(0);
  });

  it.each([
    ['telegram', 'telegram_id'],
    ['max', 'max_id'],
    ['vk', 'vk_id'],
    ['viber', 'viber_id'],
  ])('answers 422 under %s’s ID key when it is missing', async (messenger, key) => {
    const res = await upsert({
      bot_id: t.owner.botId,
      messenger,
      name: 'X',
      telegram_id: messenger === 'telegram' ? undefined : 5,
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([key]);
  });

  it.each([
    ['79991234567', 'no plus'],
    ['+1234567', '8 characters'],
    ['+1234567890123456', '17 characters'],
    ['+7999abc4567', 'letters'],
    ['+7 999 123 45 67', 'spaces'],
  ])('answers 422 under phone for %s (%s)', async (phone) => {
    const res = await upsert({
      bot_id: t.owner.botId,
      messenger: 'telegram',
      telegram_id: nextTelegramId(),
      name: 'X',
      phone,
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['phone']);
  });

  it.each(['+12345678', '+123456789012345'])(
    'accepts the phone %s at the length limits',
    async (phone) => {
      const res = await upsert({
        bot_id: t.owner.botId,
        messenger: 'telegram',
        telegram_id: nextTelegramId(),
        name: 'X',
        phone,
      });
      expect(res.status).toBe(201);
      expect(res.body.data.phone).toBe(phone.slice(1));
    },
  );

  it('lists every failing field in one 422 (the error rules)', async () => {
    const res = await upsert({
      bot_id: t.owner.botId,
      messenger: 'telegram',
      phone: 'nope',
      email: 'not-an-email',
      address: 'a'.repeat(256),
      telegram_username: 'u'.repeat(256),
      tags: Array.from({ length: 101 }, (_, i) => `t${i}`),
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(
      ['address', 'email', 'name', 'phone', 'tags', 'telegram_id', 'telegram_username'].sort(),
    );
  });

  it.each([
    [{ messenger: 'web' }, 'messenger'],
    [{ messenger: 'constructor' }, 'messenger'],
    [{ messenger: '__proto__' }, 'messenger'],
    [{ messenger: { telegram: 1 } }, 'messenger'],
    [{ messenger: 'viber', viber_id: 'v'.repeat(256) }, 'viber_id'],
    [{ max_username: 'm'.repeat(256), messenger: 'max', max_id: 1 }, 'max_username'],
    [{ tags: ['x'.repeat(256)] }, 'tags.0'],
    [{ tags: { a: 'vip' } }, 'tags'],
    [{ tags: 5 }, 'tags'],
    [{ telegram_id: 'abc' }, 'telegram_id'],
    [{ telegram_id: 0 }, 'telegram_id'],
    [{ bot_id: 'x' }, 'bot_id'],
    [{ name: 'n'.repeat(256) }, 'name'],
    // Postgres text cannot hold NUL: refused up front instead of failing the write
    [{ name: 'a\u0000b' }, 'name'],
    [{ address: 'a\u0000b' }, 'address'],
    [{ tags: ['a\u0000b'] }, 'tags.0'],
  ])('answers 422 for %o under %s', async (override, key) => {
    const res = await upsert({
      bot_id: t.owner.botId,
      messenger: 'telegram',
      telegram_id: nextTelegramId(),
      name: 'X',
      ...override,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty([key]);
  });

  it('writes nothing when validation fails', async () => {
    const telegramId = nextTelegramId();
    await upsert({
      bot_id: t.owner.botId,
      messenger: 'telegram',
      telegram_id: telegramId,
      name: 'X',
      email: 'bad',
    });
    expect(
      await scalar(t.db, sql`SELECT count(*) AS n FROM contacts WHERE telegram_id = ${telegramId}`),
    ).toBe(0);
  });
});

async function createBotFor(tenant: Tenant): Promise<number> {
  const { createBot } = await import('../helpers/factories.js');
  const bot = await createBot(t.db, tenant.projectUuid, 'Second');
  return bot.id;
}

describe('createOrUpdateContact: a blank name', () => {
  it.each(['', '   ', null])('is refused as blank (%j), not as "not a string"', async (name) => {
    const res = await upsert({
      bot_id: t.owner.botId,
      messenger: 'telegram',
      telegram_id: nextTelegramId(),
      name,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      name: ['The name field is required and must not be blank.'],
    });
  });
});

describe('createOrUpdateContact: one tag without brackets', () => {
  it.each(['query', 'form'] as const)('reads tags=vip via %s as the one tag "vip"', async (via) => {
    const res = await upsert(
      {
        bot_id: t.owner.botId,
        messenger: 'telegram',
        telegram_id: nextTelegramId(),
        name: 'T',
        tags: 'vip',
      },
      via,
    );
    expect(res.status).toBe(201);
    expect(res.body.data.tags).toEqual(['vip']);
  });
});
