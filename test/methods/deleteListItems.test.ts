import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { call } from '../helpers/call.js';
import { itemCount, makeList } from '../helpers/lists.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';
import { addItemViaApi } from '../helpers/viaApi.js';

const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner', 'stranger'] });

const remove = (params: Record<string, unknown>, key = t.owner.apiKey) =>
  call(t.app, 'deleteListItems', params, { key });

/** The ids of the list's `list_item.deleted` events. */
const events = async (listId: string) =>
  (
    await queryRows<{ item_id: string }>(
      t.db,
      sql`select item_id from changes where schema_id = ${listId} and type = 'list_item.deleted'`,
    )
  ).map((e) => e.item_id);
const version = async (listId: string) =>
  (
    await queryRows<{ version: number }>(
      t.db,
      sql`select version::int from list_schemas where id = ${listId}`,
    )
  )[0]!.version;

async function listOf(n: number) {
  const list = await makeList(t.db, t.owner, [{ slug: 'title', type: 'string' }]);
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await addItemViaApi(t.app, t.owner, list.id, { title: `t${i}` })).id);
  return { list, ids };
}

describe('deleteListItems', () => {
  it('deletes every record with 204 and keeps the counter exact', async () => {
    const { list, ids } = await listOf(4);
    const res = await remove({ schema_id: list.id, item_ids: [ids[0], ids[2]] });
    expect([res.status, res.body]).toEqual([204, '']);
    expect(await itemCount(t.db, list.id)).toBe(2);
    const page = await call(t.app, 'getListItems', { schema_id: list.id }, { key: t.owner.apiKey });
    expect(page.body.meta.total).toBe(2);
  });

  it('deletes nothing when one id is missing, naming it', async () => {
    const { list, ids } = await listOf(2);
    const res = await remove({
      schema_id: list.id,
      item_ids: [ids[0], '01900000-0000-7000-8000-000000000000'],
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['items.1.item_id']);
    expect(await itemCount(t.db, list.id)).toBe(2);
  });

  it('names every missing id, and an id named twice, when all-or-nothing; deletes nothing', async () => {
    const { list, ids } = await listOf(3);
    const res = await remove({
      schema_id: list.id,
      item_ids: [ids[0], '01900000-0000-7000-8000-000000000000', ids[1], ids[0], 'nope', '\u0000'],
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual([
      'items.1.item_id',
      'items.3.item_id',
      'items.4.item_id',
      'items.5.item_id',
    ]);
    expect(await itemCount(t.db, list.id)).toBe(3);
    expect(await events(list.id)).toEqual([]);
  });

  it('records one change event per deleted record and moves the list version once', async () => {
    const { list, ids } = await listOf(3);
    const before = await version(list.id);
    const res = await remove({ schema_id: list.id, item_ids: [ids[2], ids[0]] });
    expect(res.status).toBe(204);
    expect((await events(list.id)).sort()).toEqual([ids[0], ids[2]].sort());
    expect(await version(list.id)).toBe(before + 1);
    expect(await itemCount(t.db, list.id)).toBe(1);
  });

  it('with atomic=false deletes what it can and says what it could not', async () => {
    const { list, ids } = await listOf(2);
    const other = await listOf(1);
    const res = await remove({
      schema_id: list.id,
      atomic: false,
      item_ids: [ids[1], other.ids[0], ids[1]],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: { status: number }) => o.status)).toEqual([204, 422, 422]);
    expect(await itemCount(t.db, list.id)).toBe(1);
    expect(await itemCount(t.db, other.list.id)).toBe(1);
  });

  it('answers 403 for another account’s list and 422 for more than 1000 ids', async () => {
    const { list, ids } = await listOf(1);
    expect((await remove({ schema_id: list.id, item_ids: ids }, t.stranger.apiKey)).status).toBe(
      403,
    );
    const many = await remove({
      schema_id: list.id,
      item_ids: Array.from({ length: 1001 }, () => ids[0]),
    });
    expect([many.status, Object.keys(many.body.errors)]).toEqual([422, ['item_ids']]);
    expect(await itemCount(t.db, list.id)).toBe(1);
  });
});

describe('deleteListItems: one id alone', () => {
  it.each(['query', 'form'] as const)(
    'reads item_ids=<id> via %s as a list of one',
    async (via) => {
      const { list, ids } = await listOf(2);
      const res = await call(
        t.app,
        'deleteListItems',
        { schema_id: list.id, item_ids: ids[0] },
        { key: t.owner.apiKey, via },
      );
      expect(res.status).toBe(204);
      expect(await itemCount(t.db, list.id)).toBe(1);
    },
  );
});
