import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WEBHOOKS_PER_ACCOUNT } from '../../src/webhooks/webhookRepository.js';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { createListViaApi } from '../helpers/viaApi.js';

/** createWebhook, getWebhooks, deleteWebhook — with the default: private addresses refused. */
let t: TestApp;
let open: TestApp;

beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  // a second app on the same data that may deliver to this machine (as the delivery tests do)
  open = await startTestApp({
    database: t.database,
    env: { RATE_LIMIT_PER_MINUTE: '100000', WEBHOOK_ALLOW_PRIVATE: 'true' },
  });
});
afterAll(async () => {
  await open.close();
  await t.close();
});

const HOOK = 'http://127.0.0.1:9/hook';

describe('createWebhook', () => {
  it('answers 201 with the webhook and its signing secret, shown only then', async () => {
    const me = await makeTenant(t.db);
    const res = await call(
      open.app,
      'createWebhook',
      { url: HOOK, types: ['list_item.created', 'contact.created'] },
      { key: me.apiKey },
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      url: HOOK,
      types: ['list_item.created', 'contact.created'],
      schema_id: null,
      bot_id: null,
      status: 'active',
      last_error: null,
      disabled_at: null,
    });
    expect(res.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const list = await call(t.app, 'getWebhooks', {}, { key: me.apiKey });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].id).toBe(res.body.data.id);
    expect(list.body.data[0]).not.toHaveProperty('secret');
    expect(JSON.stringify(list.body)).not.toContain(res.body.data.secret);
  });

  it.each([
    ['http://127.0.0.1/hook', 'private'],
    ['http://localhost:8080/hook', 'private'],
    ['http://10.1.2.3/hook', 'private'],
    ['http://192.168.0.10/hook', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'private'],
    ['http://[::1]/hook', 'private'],
    ['http://[::ffff:127.0.0.1]/hook', 'private'],
    ['http://[fd00:ec2::254]/', 'private'],
    ['http://0.0.0.0/', 'private'],
    ['ftp://example.com/hook', 'http or https'],
    ['not a url', 'http or https'],
    ['https://user:pw@example.com/hook', 'user name'],
    ['https://no-such-host.invalid/hook', 'does not resolve'],
  ])('refuses %s (422, the DNS answer checked)', async (url, says) => {
    const me = await makeTenant(t.db);
    const res = await call(t.app, 'createWebhook', { url }, { key: me.apiKey });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['url']);
    expect(res.body.errors.url[0]).toContain(says);
  });

  it('refuses missing or oversized urls, unknown types (422)', async () => {
    const me = await makeTenant(t.db);
    for (const params of [
      {},
      { url: '' },
      { url: `https://example.com/${'a'.repeat(2100)}` },
      { url: HOOK, types: ['list_item.exploded'] },
    ]) {
      const res = await call(open.app, 'createWebhook', params, { key: me.apiKey });
      expect(res.status, JSON.stringify(params).slice(0, 80)).toBe(422);
    }
  });

  it("narrows to one of the caller's lists or bots; another account's is 403, a missing one 404", async () => {
    const me = await makeTenant(t.db);
    const stranger = await makeTenant(t.db);
    const mine = await createListViaApi(t.app, me, [{ slug: 'a', name: 'A', type: 'string' }]);
    const theirs = await createListViaApi(t.app, stranger, [
      { slug: 'a', name: 'A', type: 'string' },
    ]);
    const key = { key: me.apiKey };
    const ok = await call(open.app, 'createWebhook', { url: HOOK, schema_id: mine.id }, key);
    expect([ok.status, ok.body.data.schema_id]).toEqual([201, mine.id]);
    const byBot = await call(open.app, 'createWebhook', { url: HOOK, bot_id: me.botId }, key);
    expect([byBot.status, byBot.body.data.bot_id]).toEqual([201, me.botId]);
    expect(
      (await call(open.app, 'createWebhook', { url: HOOK, schema_id: theirs.id }, key)).status,
    ).toBe(403);
    expect(
      (await call(open.app, 'createWebhook', { url: HOOK, bot_id: stranger.botId }, key)).status,
    ).toBe(403);
    const missing = await call(
      open.app,
      'createWebhook',
      { url: HOOK, schema_id: '01900000-0000-7000-8000-000000000000' },
      key,
    );
    expect([missing.status, Object.keys(missing.body.errors)]).toEqual([404, ['schema_id']]);
    expect(
      (await call(open.app, 'createWebhook', { url: HOOK, bot_id: 999_999_999 }, key)).status,
    ).toBe(404);
  });

  it(`stops at ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks per account (403)`, async () => {
    const me: Tenant = await makeTenant(t.db);
    const made = await Promise.all(
      Array.from({ length: MAX_WEBHOOKS_PER_ACCOUNT + 3 }, () =>
        call(open.app, 'createWebhook', { url: HOOK }, { key: me.apiKey }),
      ),
    );
    expect(made.filter((r) => r.status === 201)).toHaveLength(MAX_WEBHOOKS_PER_ACCOUNT);
    expect(made.filter((r) => r.status === 403)).toHaveLength(3);
  });
});

describe('deleteWebhook', () => {
  it("deletes the caller's webhook (204), then 404; another account's is 403", async () => {
    const me = await makeTenant(t.db);
    const stranger = await makeTenant(t.db);
    const made = await call(open.app, 'createWebhook', { url: HOOK }, { key: me.apiKey });
    const id = made.body.data.id;
    const theirs = await call(t.app, 'deleteWebhook', { webhook_id: id }, { key: stranger.apiKey });
    expect(theirs.status).toBe(403);
    const gone = await call(t.app, 'deleteWebhook', { webhook_id: id }, { key: me.apiKey });
    expect([gone.status, gone.body]).toEqual([204, '']);
    const again = await call(t.app, 'deleteWebhook', { webhook_id: id }, { key: me.apiKey });
    expect([again.status, Object.keys(again.body.errors)]).toEqual([404, ['webhook_id']]);
    expect((await call(t.app, 'getWebhooks', {}, { key: me.apiKey })).body.data).toEqual([]);
  });
});
