import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { purgeOldChanges } from '../../src/changes/changePurge.js';
import { queryRows } from '../../src/infra/db/client.js';
import { addItem } from '../../src/lists/items/addItem.js';
import { call, TRANSPORTS } from '../helpers/call.js';
import { TEST_CITUS_URL } from '../helpers/env.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';
import { addItemViaApi, createListViaApi } from '../helpers/viaApi.js';

let telegramId = 8_000_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

const t = testAppForFile({ env: MANY_CALLS });

/* eslint-disable @typescript-eslint/no-explicit-any */
type Change = Record<string, any>;

const changes = (tenant: Tenant, params: Record<string, unknown> = {}) =>
  call(t.app, 'getChanges', params, { key: tenant.apiKey });

/** Every change of the tenant from `since` on, following the cursors, and the last cursor. */
async function follow(tenant: Tenant, since?: string, extra: Record<string, unknown> = {}) {
  const seen: Change[] = [];
  let cursor = since;
  for (let page = 0; page < 100; page++) {
    const res = await changes(tenant, { ...extra, ...(cursor ? { since: cursor } : {}) });
    expect(res.status).toBe(200);
    seen.push(...res.body.data);
    cursor = res.body.meta.next_cursor;
    if (!res.body.meta.has_more) return { seen, cursor: cursor! };
  }
  throw new Error('the feed never reached its head');
}

const fields = [
  { slug: 'title', name: 'Title', type: 'string', is_required: false },
  { slug: 'secret', name: 'Secret', type: 'string', is_required: false, is_encryptable: true },
];

describe('getChanges records every change, as the read methods show it', () => {
  it('lists, fields and list items, through single and batch methods', async () => {
    const me = await makeTenant(t.db);
    const key = { key: me.apiKey };
    const list = await createListViaApi(t.app, me, fields);
    const item = await addItemViaApi(t.app, me, list.id, { title: 'a', secret: 's1' });
    const updated = await call(
      t.app,
      'updateListItem',
      { item_id: item.id, data: { title: 'b' } },
      key,
    );
    const batch = await call(
      t.app,
      'addListItems',
      { schema_id: list.id, items: [{ title: 'c' }, { title: 'd' }] },
      key,
    );
    const [c, d] = batch.body.data.map((o: Change) => o.data ?? o);
    await call(
      t.app,
      'updateListItems',
      { schema_id: list.id, items: [{ item_id: c.id, data: { title: 'c2' } }] },
      key,
    );
    await call(t.app, 'deleteListItems', { schema_id: list.id, item_ids: [d.id] }, key);
    await call(t.app, 'deleteListItem', { item_id: item.id }, key);
    await call(
      t.app,
      'addListSchemaField',
      { schema_id: list.id, field: { slug: 'n', name: 'N', type: 'number' } },
      key,
    );
    const afterField = await call(t.app, 'getListSchema', { schema_id: list.id }, key);
    await call(t.app, 'deleteListSchemaField', { schema_id: list.id, slug: 'n' }, key);
    await call(t.app, 'deleteListSchema', { schema_id: list.id }, key);

    const { seen } = await follow(me);
    expect(seen.map((e) => e.type)).toEqual([
      'list_schema.created',
      'list_item.created',
      'list_item.updated',
      'list_item.created',
      'list_item.created',
      'list_item.updated',
      'list_item.deleted',
      'list_item.deleted',
      'list_schema.field_added',
      'list_schema.field_deleted',
      'list_schema.deleted',
    ]);
    expect(seen[0]).toMatchObject({ schema_id: list.id, data: list });
    // the record after each change, exactly as the write answered it (encrypted value decrypted)
    expect(seen[1]).toMatchObject({ schema_id: list.id, item_id: item.id, data: item });
    expect(seen[2]!.data).toEqual(updated.body.data);
    expect(seen[3]!.data).toEqual(c);
    expect(seen[5]!.data).toMatchObject({ id: c.id, title: 'c2' });
    expect(seen[6]).toMatchObject({ item_id: d.id, data: null });
    expect(seen[7]).toMatchObject({ item_id: item.id, data: null });
    expect(seen[8]!.data).toEqual(afterField.body.data);
    expect(Object.keys(seen[9]!.data.fields)).toEqual(['title', 'secret']);
    expect(seen[10]).toMatchObject({ schema_id: list.id, data: null });
    for (const e of seen) {
      expect(Object.keys(e).slice(0, 3)).toEqual(['id', 'type', 'occurred_at']);
      expect(new Date(e.occurred_at).toISOString()).toBe(e.occurred_at);
    }
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
  });

  it('keeps encrypted values encrypted at rest', async () => {
    const me = await makeTenant(t.db);
    const list = await createListViaApi(t.app, me, fields);
    await addItemViaApi(t.app, me, list.id, { title: 'plain', secret: 'hush-hush-value' });
    const [row] = await queryRows<{ data: string }>(
      t.db,
      sql`select data::text as data from changes
          where account_id = ${me.accountId} and type = 'list_item.created'`,
    );
    expect(row!.data).toContain('plain');
    expect(row!.data).not.toContain('hush-hush-value');
    const { seen } = await follow(me);
    expect(seen[1]!.data.secret).toBe('hush-hush-value');
  });

  it('shows an item with the fields it was written under, after a field change', async () => {
    const me = await makeTenant(t.db);
    const list = await createListViaApi(t.app, me, fields);
    await addItemViaApi(t.app, me, list.id, { title: 'x' });
    await call(
      t.app,
      'deleteListSchemaField',
      { schema_id: list.id, slug: 'title' },
      { key: me.apiKey },
    );
    const { seen } = await follow(me);
    expect(Object.keys(seen[1]!.data)).toEqual([
      'id',
      'title',
      'secret',
      'created_at',
      'updated_at',
    ]);
  });

  it('contacts created and updated, one by one and in bulk', async () => {
    const me = await makeTenant(t.db);
    const key = { key: me.apiKey };
    const tg = telegramId++;
    const first = await call(
      t.app,
      'createOrUpdateContact',
      { bot_id: me.botId, messenger: 'telegram', telegram_id: tg, name: 'Ann' },
      key,
    );
    const second = await call(
      t.app,
      'createOrUpdateContact',
      { bot_id: me.botId, messenger: 'telegram', telegram_id: tg, name: 'Anna' },
      key,
    );
    const bulk = await call(
      t.app,
      'createOrUpdateContacts',
      {
        bot_id: me.botId,
        contacts: [
          { messenger: 'telegram', telegram_id: tg, name: 'Anne' },
          { messenger: 'telegram', telegram_id: telegramId++, name: 'Bob' },
        ],
      },
      key,
    );
    expect(bulk.status).toBe(200);
    const { seen } = await follow(me);
    // The bulk call's two events are of different contacts in one transaction: their order
    // is the order Postgres inserted them (by contact id); on Citus the rows travel through
    // the coordinator and reach the shard in either order (docs/scaling.md, exceptions).
    const bulkEvents = (events: typeof seen) =>
      TEST_CITUS_URL
        ? [...events].sort((a, b) => String(a.data.name).localeCompare(String(b.data.name)))
        : events;
    const inOrder = [...seen.slice(0, 2), ...bulkEvents(seen.slice(2))];
    expect(inOrder.map((e) => e.type)).toEqual([
      'contact.created',
      'contact.updated',
      'contact.updated',
      'contact.created',
    ]);
    expect(seen[0]).toMatchObject({ bot_id: me.botId, contact_id: first.body.data.id });
    expect(seen[0]!.data).toEqual(first.body.data);
    expect(seen[1]!.data).toEqual(second.body.data);
    expect(inOrder.slice(2).map((e) => e.data.name)).toEqual(['Anne', 'Bob']);
    // the contact shape's key order is kept
    expect(Object.keys(seen[0]!.data)).toEqual(Object.keys(first.body.data));
  });

  it('records nothing for a batch that was refused as a whole', async () => {
    const me = await makeTenant(t.db);
    const list = await createListViaApi(t.app, me, [
      { slug: 'title', name: 'T', type: 'string', is_required: true },
    ]);
    const res = await call(
      t.app,
      'addListItems',
      { schema_id: list.id, items: [{ title: 'ok' }, { title: '' }] },
      { key: me.apiKey },
    );
    expect(res.status).toBe(422);
    expect((await follow(me)).seen.map((e) => e.type)).toEqual(['list_schema.created']);
  });
});

describe('getChanges follows a cursor', () => {
  it('pages with limit, resumes from a saved cursor and is empty at the head', async () => {
    const me = await makeTenant(t.db);
    const list = await createListViaApi(t.app, me, fields);
    for (let i = 0; i < 5; i++) await addItemViaApi(t.app, me, list.id, { title: `t${i}` });
    const page1 = await changes(me, { limit: 4 });
    expect(page1.body.data).toHaveLength(4);
    expect(page1.body.meta.has_more).toBe(true);
    const page2 = await changes(me, { limit: 4, since: page1.body.meta.next_cursor });
    expect(page2.body.data).toHaveLength(2);
    expect(page2.body.meta.has_more).toBe(false);
    const ids = [...page1.body.data, ...page2.body.data].map((e: Change) => e.id);
    expect(new Set(ids).size).toBe(6);

    const head = await changes(me, { since: page2.body.meta.next_cursor });
    expect([head.status, head.body.data, head.body.meta.has_more]).toEqual([200, [], false]);
    await addItemViaApi(t.app, me, list.id, { title: 'late' });
    const next = await changes(me, { since: head.body.meta.next_cursor });
    expect(next.body.data.map((e: Change) => e.data.title)).toEqual(['late']);
    // the same cursor read again gives the same changes (a retry after a lost answer)
    const again = await changes(me, { since: head.body.meta.next_cursor });
    expect(again.body.data).toEqual(next.body.data);
  });

  it.each(TRANSPORTS)('answers through %s', async (via) => {
    const me = await makeTenant(t.db);
    await createListViaApi(t.app, me, fields);
    const res = await call(t.app, 'getChanges', { limit: '1' }, { key: me.apiKey, via });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
  });

  it('shows only the caller’s changes', async () => {
    const me = await makeTenant(t.db);
    const stranger = await makeTenant(t.db);
    await createListViaApi(t.app, stranger, fields);
    expect((await follow(me)).seen).toEqual([]);
  });

  it('filters by list, bot and type; a deleted list’s changes stay readable', async () => {
    const me = await makeTenant(t.db);
    const a = await createListViaApi(t.app, me, fields);
    const b = await createListViaApi(t.app, me, fields);
    await addItemViaApi(t.app, me, a.id, { title: 'in a' });
    await addItemViaApi(t.app, me, b.id, { title: 'in b' });
    await call(
      t.app,
      'createOrUpdateContact',
      { bot_id: me.botId, messenger: 'telegram', telegram_id: telegramId++, name: 'C' },
      { key: me.apiKey },
    );
    await call(t.app, 'deleteListSchema', { schema_id: a.id }, { key: me.apiKey });
    const onlyA = await follow(me, undefined, { schema_id: a.id });
    expect(onlyA.seen.map((e) => e.type)).toEqual([
      'list_schema.created',
      'list_item.created',
      'list_schema.deleted',
    ]);
    const items = await follow(me, undefined, { types: ['list_item.created'] });
    expect(items.seen.map((e) => e.data.title)).toEqual(['in a', 'in b']);
    const single = await follow(me, undefined, { types: 'contact.created' });
    expect(single.seen).toHaveLength(1);
    const byBot = await follow(me, undefined, { bot_id: me.botId });
    expect(byBot.seen.map((e) => e.type)).toEqual(['contact.created']);
  });

  it('sees a transaction that took its place early and committed late, once', async () => {
    const me = await makeTenant(t.db);
    // two lists: writers of one list queue on its row, so only different lists can race
    const list = await createListViaApi(t.app, me, fields);
    const other = await createListViaApi(t.app, me, fields);
    const start = await follow(me);
    const ctx = { ...t.deps.lists, caller: { accountId: me.accountId } } as never;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let written!: () => void;
    const wrote = new Promise<void>((r) => (written = r));
    // the slow transaction writes first, so its change has the lower seq, and commits last
    const slow = t.db.transaction(async (tx) => {
      await addItem({ ...(ctx as object), db: tx } as never, list.id, { title: 'slow' });
      written();
      await held;
    });
    await wrote;
    await addItemViaApi(t.app, me, other.id, { title: 'fast' });
    const first = await follow(me, start.cursor);
    expect(first.seen.map((e) => e.data.title)).toEqual(['fast']);
    release();
    await slow;
    const second = await follow(me, first.cursor);
    expect(second.seen.map((e) => e.data.title)).toEqual(['slow']);
    expect(second.seen[0]!.id).toBeLessThan(first.seen[0]!.id);
    expect((await follow(me, second.cursor)).seen).toEqual([]);
  });
});

describe('getChanges refuses', () => {
  it('limits outside 1–1000, unknown types and a since it did not give out (422)', async () => {
    const me = await makeTenant(t.db);
    for (const params of [
      { limit: 0 },
      { limit: 1001 },
      { types: ['list_item.exploded'] },
      { since: 'not-a-cursor' },
      { since: Buffer.from('{"v":1,"a":"5:3:"}').toString('base64url') },
      { since: Buffer.from('{"v":1,"l":5}').toString('base64url') },
    ]) {
      const res = await changes(me, params);
      expect(res.status, JSON.stringify(params)).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([
        Object.keys(params)[0] === 'types' ? 'types.0' : Object.keys(params)[0],
      ]);
    }
  });

  it('another account’s list or bot (403), a missing one (404)', async () => {
    const me = await makeTenant(t.db);
    const stranger = await makeTenant(t.db);
    const theirs = await createListViaApi(t.app, stranger, fields);
    expect((await changes(me, { schema_id: theirs.id })).status).toBe(403);
    expect((await changes(me, { bot_id: stranger.botId })).status).toBe(403);
    const missing = await changes(me, { schema_id: '01900000-0000-7000-8000-000000000000' });
    expect([missing.status, Object.keys(missing.body.errors)]).toEqual([404, ['schema_id']]);
    expect((await changes(me, { bot_id: 999_999_999 })).status).toBe(404);
  });

  it('a cursor from before what retention purged (410 cursor_expired)', async () => {
    const me = await makeTenant(t.db);
    const list = await createListViaApi(t.app, me, fields);
    const { cursor } = await follow(me);
    await addItemViaApi(t.app, me, list.id, { title: 'unread' });
    await queryRows(
      t.db,
      sql`update changes set occurred_at = now() - interval '30 days'
          where account_id = ${me.accountId}`,
    );
    expect(await purgeOldChanges(t.db, 7)).toBeGreaterThanOrEqual(2);
    const res = await changes(me, { since: cursor });
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('cursor_expired');
    // starting over works
    expect((await changes(me)).status).toBe(200);
  });
});
