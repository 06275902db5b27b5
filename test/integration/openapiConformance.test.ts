import { beforeAll, describe, expect, it } from 'vitest';
import { methods } from '../../src/methods/methodRegistry.js';
import { call, type CallResult, type Transport } from '../helpers/call.js';
import { seedContact } from '../helpers/contacts.js';
import { makeTenant } from '../helpers/factories.js';
import { fetchDocument, responseChecker } from '../helpers/openapiConformance.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * The document cannot drift from the code. Real calls of every method, successes
 * and the error rules errors, are checked against the response schemas the document publishes.
 */
let check: ReturnType<typeof responseChecker>;
const problems: string[] = [];
const succeeded = new Set<string>();

// webhooks to this machine (the receiver address below) are allowed here
const t = testAppForFile({
  env: { WEBHOOK_ALLOW_PRIVATE: 'true' },
  tenants: { me: { name: 'Conformance' }, stranger: {} },
});
beforeAll(async () => {
  check = responseChecker(await fetchDocument(t.app));
});

/** Calls a method, checks the response against the document, returns it. */
async function conforming(
  method: string,
  params: Record<string, unknown>,
  opts: { key?: string; via?: Transport; expect: number },
): Promise<CallResult> {
  const res = await call(t.app, method, params, { key: opts.key ?? t.me.apiKey, via: opts.via });
  expect(res.status, `${method}: ${JSON.stringify(res.body)}`).toBe(opts.expect);
  const found = check(method, { status: res.status, body: res.body });
  problems.push(...found);
  expect(found).toEqual([]);
  if (res.status < 300) succeeded.add(method);
  return res;
}

const ALL_TYPES = [
  { name: 'Title', slug: 'title', type: 'string' },
  { name: 'Count', slug: 'count', type: 'number', is_required: false },
  { name: 'Done', slug: 'done', type: 'bool', is_required: false },
  { name: 'Day', slug: 'day', type: 'date', is_required: false },
  { name: 'At', slug: 'at', type: 'datetime', is_required: false },
  { name: 'Price', slug: 'price', type: 'money', currency: 'EUR', is_required: false },
  { name: 'Doc', slug: 'doc', type: 'file', is_required: false },
  { name: 'Photo', slug: 'photo', type: 'image', is_required: false, is_hidden: true },
  { name: 'Who', slug: 'who', type: 'contact', is_required: false },
  { name: 'Bot', slug: 'bot', type: 'bot', is_required: false },
  { name: 'Secret', slug: 'secret', type: 'string', is_required: false, is_encryptable: true },
];

describe('responses conform to the OpenAPI document', () => {
  let schemaId = '';
  let itemId = '';
  let contactId = 0;

  it('getMe: 200, and 401 / 402 errors (the authentication rules)', async () => {
    await conforming('getMe', {}, { expect: 200 });
    await conforming('getMe', {}, { via: 'query', expect: 200 });
    await conforming('getMe', {}, { key: 'not-a-key', expect: 401 });
    const free = await makeTenant(t.db, { plan: 'free' });
    await conforming('getMe', {}, { key: free.apiKey, expect: 402 });
  });

  it('createOrUpdateContact: 201 created, 200 updated, 404 and 422 (createOrUpdateContact)', async () => {
    const created = await conforming(
      'createOrUpdateContact',
      {
        bot_id: t.me.botId,
        messenger: 'telegram',
        name: 'Ann',
        telegram_id: 4242,
        telegram_username: 'ann',
        phone: '+15551234567',
        email: 'ann@example.test',
        tags: ['vip'],
      },
      { expect: 201 },
    );
    contactId = created.body.data.id;
    await conforming(
      'createOrUpdateContact',
      { bot_id: t.me.botId, messenger: 'telegram', name: 'Ann B', telegram_id: 4242 },
      { expect: 200 },
    );
    await conforming(
      'createOrUpdateContact',
      { bot_id: t.me.botId, messenger: 'vk', name: 'Vic', vk_id: 77 },
      { via: 'form', expect: 201 },
    );
    await conforming(
      'createOrUpdateContact',
      { bot_id: t.stranger.botId, messenger: 'telegram', name: 'X', telegram_id: 1 },
      { expect: 404 },
    );
    await conforming(
      'createOrUpdateContact',
      { bot_id: t.me.botId, messenger: 'telegram', name: 'X', phone: 'nope' },
      { expect: 422 },
    );
  });

  it('getContacts and getNumberOfContacts: page mode, offset mode, count (getContacts, 4.12)', async () => {
    await seedContact(t.db, t.me.botId, {
      messenger: 'max',
      variables: [
        { name: 'utm_source', value: 'ads' },
        { name: 'photo', value: 'https://example.test/p.png', type: 1 },
      ],
    });
    await seedContact(t.db, t.me.botId, { messenger: 'viber', unsubscribed_at: new Date() });
    await seedContact(t.db, t.me.botId, { messenger: 'web' });
    const page = await conforming('getContacts', { count: 2 }, { via: 'query', expect: 200 });
    expect(page.body.meta.total).toBe(5);
    const offset = await conforming('getContacts', { offset: 0, limit: 10 }, { expect: 200 });
    expect(offset.body.data).toHaveLength(5);
    await conforming('getNumberOfContacts', { bot_id: t.me.botId }, { expect: 200 });
  });

  it('createListSchema: 201 with every field type, 422 and 403 (createListSchema)', async () => {
    const res = await conforming(
      'createListSchema',
      { name: 'Everything', bot_id: t.me.botId, fields: ALL_TYPES },
      { expect: 201 },
    );
    schemaId = res.body.data.id;
    await conforming(
      'createListSchema',
      { name: 'Project list', project_uuid: t.me.projectUuid, fields: ALL_TYPES.slice(0, 2) },
      { via: 'form', expect: 201 },
    );
    await conforming(
      'createListSchema',
      { name: 'Dup', project_uuid: t.me.projectUuid, fields: [ALL_TYPES[0], ALL_TYPES[0]] },
      { expect: 422 },
    );
    await conforming(
      'createListSchema',
      { name: 'Theirs', project_uuid: t.stranger.projectUuid, fields: ALL_TYPES.slice(0, 1) },
      { expect: 403 },
    );
  });

  it('getListSchema, getListSchemas: 200 and 404 (getListSchemas, 4.2)', async () => {
    await conforming('getListSchema', { schema_id: schemaId }, { via: 'query', expect: 200 });
    await conforming('getListSchema', { schema_id: 'no-such-list' }, { expect: 404 });
    await conforming('getListSchemas', {}, { expect: 200 });
    await conforming(
      'getListSchema',
      { schema_id: schemaId },
      { key: t.stranger.apiKey, expect: 403 },
    );
  });

  it('addListSchemaField and deleteListSchemaField: 204 and 422 (addListSchemaField, 4.6)', async () => {
    const field = { name: 'Extra', slug: 'extra', type: 'string', is_required: false };
    await conforming('addListSchemaField', { schema_id: schemaId, field }, { expect: 204 });
    await conforming('addListSchemaField', { schema_id: schemaId, field }, { expect: 422 });
    await conforming(
      'deleteListSchemaField',
      { schema_id: schemaId, slug: 'extra' },
      { expect: 204 },
    );
    await conforming(
      'deleteListSchemaField',
      { schema_id: schemaId, slug: 'extra' },
      { expect: 422 },
    );
  });

  it('addListItem, getListItems, updateListItem: records of every type (getListItems–4.9)', async () => {
    const data = {
      title: 'First',
      count: 3.5,
      done: true,
      day: '2026-01-02',
      at: '2026-01-02 10:30',
      price: 12.5,
      doc: { url: 'https://example.test/a.pdf', name: 'a.pdf', type: 'file', storage: 'url' },
      photo: 'https://example.test/p.png',
      who: contactId,
      bot: t.me.botId,
      secret: 'hidden',
    };
    const added = await conforming('addListItem', { schema_id: schemaId, data }, { expect: 201 });
    itemId = added.body.data.id;
    await conforming(
      'addListItem',
      { schema_id: schemaId, data: { title: 'Second' } },
      { expect: 201 },
    );
    await conforming('addListItem', { schema_id: schemaId, data: { count: 1 } }, { expect: 422 });
    const list = await conforming(
      'getListItems',
      { schema_id: schemaId, order_by: 'created_at,asc', filters: { done: true } },
      { via: 'query', expect: 200 },
    );
    expect(list.body.data).toHaveLength(1);
    await conforming(
      'getListItems',
      { schema_id: schemaId, order_by: 'nope,asc' },
      { expect: 422 },
    );
    await conforming(
      'updateListItem',
      { item_id: itemId, data: { title: 'Changed' } },
      { expect: 200 },
    );
    await conforming('updateListItem', { item_id: 'no-such-item', data: {} }, { expect: 404 });
  });

  it('addListItems: a batch all or nothing, and one outcome per item', async () => {
    const items = [
      { title: 'Batch 1', count: 1 },
      { title: 'Batch 2', secret: 's' },
    ];
    await conforming('addListItems', { schema_id: schemaId, items }, { expect: 201 });
    await conforming(
      'addListItems',
      { schema_id: schemaId, items: [{ count: 1 }] },
      { expect: 422 },
    );
    await conforming(
      'addListItems',
      { schema_id: schemaId, items: [{ title: 'ok' }, { count: 'x' }], atomic: false },
      { expect: 200 },
    );
  });

  it('updateListItems, deleteListItems, createOrUpdateContacts: batches', async () => {
    const batch = await conforming(
      'addListItems',
      { schema_id: schemaId, items: [{ title: 'U1' }, { title: 'U2' }] },
      { expect: 201 },
    );
    const [u1, u2] = batch.body.data.map((r: { id: string }) => r.id);
    await conforming(
      'updateListItems',
      { schema_id: schemaId, items: [{ item_id: u1, data: { title: 'U1b' } }] },
      { expect: 200 },
    );
    await conforming(
      'updateListItems',
      { schema_id: schemaId, items: [{ item_id: u1, data: { count: 'x' } }], atomic: false },
      { expect: 200 },
    );
    await conforming(
      'deleteListItems',
      { schema_id: schemaId, item_ids: [u1, u2] },
      { expect: 204 },
    );
    await conforming(
      'deleteListItems',
      { schema_id: schemaId, item_ids: [u1], atomic: false },
      { expect: 200 },
    );
    await conforming(
      'createOrUpdateContacts',
      {
        bot_id: t.me.botId,
        contacts: [{ messenger: 'telegram', telegram_id: 4343, name: 'Batch' }],
      },
      { expect: 200 },
    );
    await conforming(
      'createOrUpdateContacts',
      { bot_id: t.me.botId, contacts: [{ messenger: 'telegram', name: 'No id' }] },
      { expect: 422 },
    );
  });

  it('deleteListItem and deleteListSchema: 204, then 404 (deleteListSchema, 4.10)', async () => {
    await conforming('deleteListItem', { item_id: itemId }, { expect: 204 });
    await conforming('deleteListItem', { item_id: itemId }, { expect: 404 });
    await conforming('deleteListSchema', { schema_id: schemaId }, { expect: 204 });
    await conforming('deleteListSchema', { schema_id: schemaId }, { expect: 404 });
  });

  it('getChanges: every change type, paging, 422 and 403', async () => {
    const types = new Set<string>();
    let since: string | undefined;
    for (;;) {
      const res = await conforming(
        'getChanges',
        { limit: 3, ...(since ? { since } : {}) },
        {
          via: 'query',
          expect: 200,
        },
      );
      for (const change of res.body.data) types.add(change.type);
      since = res.body.meta.next_cursor;
      if (!res.body.meta.has_more) break;
    }
    expect([...types].sort()).toEqual(
      expect.arrayContaining(['contact.created', 'list_item.created', 'list_schema.created']),
    );
    await conforming('getChanges', { limit: 0 }, { expect: 422 });
    await conforming('getChanges', { bot_id: t.stranger.botId }, { expect: 403 });
  });

  it('createWebhook, getWebhooks, deleteWebhook: 201, 200, 204, 422 and 404', async () => {
    const made = await conforming(
      'createWebhook',
      { url: 'http://127.0.0.1:9/hook', types: ['list_item.created'] },
      { expect: 201 },
    );
    await conforming('getWebhooks', {}, { via: 'query', expect: 200 });
    await conforming('createWebhook', { url: 'ftp://example.com/' }, { expect: 422 });
    await conforming('deleteWebhook', { webhook_id: made.body.data.id }, { expect: 204 });
    await conforming('deleteWebhook', { webhook_id: made.body.data.id }, { expect: 404 });
  });

  it('malformed JSON gives the documented 400 (docs/decisions.md)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/getMe',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      payload: '{"broken":',
    });
    expect(check('getMe', { status: res.statusCode, body: res.json() })).toEqual([]);
    expect(res.statusCode).toBe(400);
  });

  it('covered a successful call of every registered method, all conforming', () => {
    expect([...methods.keys()].filter((m) => !succeeded.has(m))).toEqual([]);
    expect(problems).toEqual([]);
  });
});
