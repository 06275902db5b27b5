import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { scalar, subscriberCount } from '../helpers/contacts.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

let t: TestApp;
let owner: Tenant;

beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  owner = await makeTenant(t.db);
});
afterAll(() => t.close());

const upsert = (params: Record<string, unknown>) =>
  call(t.app, 'createOrUpdateContact', params, { key: owner.apiKey });

describe('createOrUpdateContact under concurrency', () => {
  it('turns 50 simultaneous calls for one telegram_id into one contact, one 201 and one new subscriber', async () => {
    const before = await subscriberCount(t.db, owner.botId);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        upsert({
          bot_id: owner.botId,
          messenger: 'telegram',
          telegram_id: 123_456_789,
          name: `Racer ${i}`,
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(49);
    expect(new Set(responses.map((r) => r.body.data.id)).size).toBe(1);
    expect(
      await scalar(
        t.db,
        sql`SELECT count(*) FROM contacts WHERE bot_id = ${owner.botId} AND telegram_id = 123456789`,
      ),
    ).toBe(1);
    expect(await subscriberCount(t.db, owner.botId)).toBe(before + 1);
    const listed = await call(
      t.app,
      'getNumberOfContacts',
      { bot_id: owner.botId },
      { key: owner.apiKey },
    );
    expect(listed.body.count).toBe(1);
  });

  it('counts every one of 50 simultaneous creates of different contacts', async () => {
    const before = await subscriberCount(t.db, owner.botId);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        upsert({ bot_id: owner.botId, messenger: 'vk', vk_id: 10_000 + i, name: `VK ${i}` }),
      ),
    );
    expect(responses.every((r) => r.status === 201)).toBe(true);
    expect(await subscriberCount(t.db, owner.botId)).toBe(before + 50);
    const listed = await call(
      t.app,
      'getNumberOfContacts',
      { bot_id: owner.botId },
      { key: owner.apiKey },
    );
    expect(listed.body.count).toBe(51);
  });
});
