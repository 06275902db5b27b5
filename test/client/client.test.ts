import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  ListkeeperError,
  methodNames,
  type ClientOptions,
} from '../../client/src/index.js';
import { methods } from '../../src/methods/methodRegistry.js';
import { seedContacts } from '../helpers/contacts.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { makeList } from '../helpers/lists.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/** The typed client, against the real server over HTTP. */
let baseUrl: string;
/** parameters of every request the clients sent, in order */
const sent: { method: string; params: Record<string, unknown> }[] = [];

const recordingFetch: typeof fetch = async (input, init) => {
  const method = String(input).split('/').pop() ?? '';
  sent.push({ method, params: JSON.parse(String(init?.body ?? '{}')) });
  return fetch(input, init);
};

function clientFor(tenant: Tenant, extra: Partial<ClientOptions> = {}) {
  return createClient({ baseUrl, apiKey: tenant.apiKey, fetch: recordingFetch, ...extra });
}

function sentTo(method: string) {
  return sent.filter((s) => s.method === method).map((s) => s.params);
}

const t = testAppForFile();
beforeAll(async () => {
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
});

describe('typed client: one function per method', () => {
  it('has a function for every registered method, named exactly like it', () => {
    expect([...methodNames].sort()).toEqual([...methods.keys()].sort());
    const client = createClient({ baseUrl, apiKey: 'k' });
    for (const name of methodNames) expect(typeof client[name], name).toBe('function');
  });

  it('calls getMe and returns the typed account (the authentication rules)', async () => {
    const tenant = await makeTenant(t.db, { name: 'Client Ada' });
    const me = await clientFor(tenant).getMe();
    expect(me.data).toMatchObject({ id: tenant.accountId, name: 'Client Ada', plan: 'pro' });
  });

  it('creates a list and a record with typed parameters (createListSchema, 4.8)', async () => {
    const tenant = await makeTenant(t.db);
    const client = clientFor(tenant);
    const list = await client.createListSchema({
      name: 'Orders',
      bot_id: tenant.botId,
      fields: [
        { name: 'Title', slug: 'title', type: 'string' },
        { name: 'Total', slug: 'total', type: 'money', currency: 'EUR', is_required: false },
      ],
    });
    expect(list.data.fields.total).toMatchObject({ type: 'money', currency: 'EUR' });
    const item = await client.addListItem({
      schema_id: list.data.id,
      data: { title: 'A', total: 9.5 },
    });
    expect(item.data).toMatchObject({ title: 'A', total: 9.5 });
    expect(await client.deleteListItem({ item_id: item.data.id })).toBeUndefined();
  });
});

describe('typed client: iterators over every page', () => {
  it('listItems walks all pages of getListItems in order (the paging envelope, 4.7)', async () => {
    const tenant = await makeTenant(t.db);
    const client = clientFor(tenant);
    const list = await makeList(t.db, tenant, [{ slug: 'n', type: 'number' }]);
    for (let n = 1; n <= 7; n++) await client.addListItem({ schema_id: list.id, data: { n } });

    const seen: unknown[] = [];
    for await (const item of client.listItems({
      schema_id: list.id,
      limit: 3,
      order_by: 'n,desc',
    })) {
      seen.push(item.n);
    }
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(sentTo('getListItems').map((p) => p.page)).toEqual([1, 2, 3]);
  });

  it('listSchemas walks getListSchemas past its fixed 50 per page (getListSchemas)', async () => {
    const tenant = await makeTenant(t.db);
    for (let i = 0; i < 51; i++)
      await makeList(t.db, tenant, [{ slug: 's', type: 'string' }], `L${i}`);
    const names = new Set<string>();
    for await (const schema of clientFor(tenant).listSchemas()) names.add(schema.name);
    expect(names.size).toBe(51);
  });

  it('exportContacts walks the offset export; listContacts the pages (getContacts)', async () => {
    const tenant = await makeTenant(t.db);
    const ids = await seedContacts(t.db, tenant.botId, 25);
    const client = clientFor(tenant);
    const before = sentTo('getContacts').length;

    const exported: number[] = [];
    for await (const c of client.exportContacts({ limit: 10 })) exported.push(c.id);
    expect(exported).toEqual([...ids].sort((a, b) => a - b));
    const offsets = sentTo('getContacts')
      .slice(before)
      .map((p) => p.offset);
    expect(offsets).toEqual([0, 10, 20]);

    const paged: number[] = [];
    for await (const c of client.listContacts({ count: 10, bot_id: tenant.botId }))
      paged.push(c.id);
    expect(paged).toEqual(exported);
  });
});

describe('typed client: errors (the error rules)', () => {
  it('exposes status, code and errors of a 422', async () => {
    const tenant = await makeTenant(t.db);
    const error = await clientFor(tenant)
      .createListSchema({ name: 'x', project_uuid: tenant.projectUuid, fields: [] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListkeeperError);
    expect(error).toMatchObject({ status: 422, method: 'createListSchema' });
    expect(Object.keys((error as ListkeeperError).errors)).toContain('fields');
  });

  it('exposes the code of 401, 402 and the keyed errors of a 404', async () => {
    const free = await makeTenant(t.db, { plan: 'free' });
    await expect(clientFor(free).getMe()).rejects.toMatchObject({
      status: 402,
      code: 'pro_required',
    });
    await expect(
      createClient({ baseUrl, apiKey: 'wrong-key', fetch: recordingFetch }).getMe(),
    ).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    const tenant = await makeTenant(t.db);
    const error = await clientFor(tenant)
      .getListSchema({ schema_id: 'missing' })
      .then(
        () => undefined,
        (e: ListkeeperError) => e,
      );
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
    expect(error?.errors.schema_id).toHaveLength(1);
  });
});

describe('typed client: 429 retries (the limits)', () => {
  let limited: TestApp;
  let limitedUrl: string;
  let now = Date.parse('2026-03-01T10:00:30Z');
  beforeAll(async () => {
    limited = await startTestApp({
      database: t.database,
      env: { RATE_LIMIT_PER_MINUTE: '1' },
      clock: () => new Date(now),
    });
    limitedUrl = await limited.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => limited.close());

  it('waits the Retry-After the server sent, then succeeds', async () => {
    const tenant = await makeTenant(t.db);
    const waits: number[] = [];
    const client = createClient({
      baseUrl: limitedUrl,
      apiKey: tenant.apiKey,
      // The server's clock moves by exactly the time the client waits.
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    });
    await client.getMe();
    const second = await client.getMe();
    expect(second.data.id).toBe(tenant.accountId);
    expect(waits).toEqual([30_000]); // 30 s left in the minute window at 10:00:30
  });

  it('gives up after maxRetries and throws the 429', async () => {
    const tenant = await makeTenant(t.db);
    const waits: number[] = [];
    const client = createClient({
      baseUrl: limitedUrl,
      apiKey: tenant.apiKey,
      maxRetries: 2,
      sleep: async (ms) => void waits.push(ms),
    });
    await client.getMe();
    await expect(client.getMe()).rejects.toMatchObject({ status: 429 });
    expect(waits).toHaveLength(2);
  });
});

describe('typed client: the change feed', () => {
  it('reads to the head page by page, resumes from a saved cursor and follows until aborted', async () => {
    const tenant = await makeTenant(t.db);
    const client = clientFor(tenant);
    const list = await client.createListSchema({
      name: 'Feed',
      project_uuid: tenant.projectUuid,
      fields: [{ name: 'Title', slug: 'title', type: 'string', is_required: false }],
    });
    const schemaId = list.data.id;
    for (const title of ['a', 'b', 'c']) {
      await client.addListItem({ schema_id: schemaId, data: { title } });
    }
    const types: string[] = [];
    let saved: string | undefined;
    for await (const page of client.changes({ limit: 2 })) {
      types.push(...page.data.map((c) => c.type));
      saved = page.meta.next_cursor;
    }
    expect(types).toEqual([
      'list_schema.created',
      'list_item.created',
      'list_item.created',
      'list_item.created',
    ]);
    expect(sentTo('getChanges').at(-1)).toMatchObject({ limit: 2 });

    await client.addListItem({ schema_id: schemaId, data: { title: 'd' } });
    const resumed: unknown[] = [];
    for await (const page of client.changes({ since: saved })) resumed.push(...page.data);
    expect(resumed.map((c) => (c as { data: { title: string } }).data.title)).toEqual(['d']);

    // following: polls at the head until the signal aborts
    const controller = new AbortController();
    const polls: number[] = [];
    const following = clientFor(tenant, {
      sleep: async (ms) => {
        polls.push(ms);
        if (polls.length === 1)
          await client.addListItem({ schema_id: schemaId, data: { title: 'e' } });
        if (polls.length === 3) controller.abort();
      },
    });
    const followed: string[] = [];
    for await (const page of following.changes(
      { since: saved },
      { follow: true, pollIntervalMs: 250, signal: controller.signal },
    )) {
      followed.push(...page.data.map((c) => (c.data as unknown as { title: string }).title));
    }
    expect(followed).toEqual(['d', 'e']);
    expect(polls).toEqual([250, 250, 250]);
  });
});
