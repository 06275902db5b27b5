import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { makeList, type TestList } from '../helpers/lists.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

// Every list and list item method decides access in one place (src/lists/listAccess.ts, and
// itemLookup.ts for an item's list), so a list of another account gets one 403 from all.
let list: TestList;
let itemId: string;

const t = testAppForFile({ tenants: ['owner', 'stranger'] });
beforeAll(async () => {
  list = await makeList(t.db, t.owner, [{ slug: 'name', type: 'string' }]);
  const added = await call(
    t.app,
    'addListItem',
    { schema_id: list.id, data: { name: 'a' } },
    { key: t.owner.apiKey },
  );
  itemId = added.body.data.id;
});

const FORBIDDEN = {
  message: 'This list belongs to a project of another account.',
  error: 'forbidden',
};

describe('a list of another account', () => {
  it.each([
    ['getListSchema', () => ({ schema_id: list.id })],
    ['deleteListSchema', () => ({ schema_id: list.id })],
    ['addListSchemaField', () => ({ schema_id: list.id, name: 'Extra', type: 'string' })],
    ['deleteListSchemaField', () => ({ schema_id: list.id, slug: 'name' })],
    ['getListItems', () => ({ schema_id: list.id })],
    ['addListItem', () => ({ schema_id: list.id, data: { name: 'b' } })],
    ['updateListItem', () => ({ item_id: itemId, data: { name: 'c' } })],
    ['deleteListItem', () => ({ item_id: itemId })],
    ['getChanges', () => ({ schema_id: list.id })],
  ])('answers %s with the one 403 body', async (method, params) => {
    const res = await call(t.app, method, params(), { key: t.stranger.apiKey });
    expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
  });

  it('is left as it was', async () => {
    const res = await call(t.app, 'getListItems', { schema_id: list.id }, { key: t.owner.apiKey });
    expect(res.body.data.map((item: { id: string }) => item.id)).toEqual([itemId]);
    const schema = await call(
      t.app,
      'getListSchema',
      { schema_id: list.id },
      { key: t.owner.apiKey },
    );
    expect(Object.keys(schema.body.data.fields)).toEqual(['name']);
  });
});
