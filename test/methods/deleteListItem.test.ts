import { describe, expect, it } from 'vitest';
import { call, TRANSPORTS } from '../helpers/call.js';
import { itemCount, makeList, markListDeleted, rawRecord } from '../helpers/lists.js';
import { recordWritesForFile } from '../helpers/recordWrites.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

const now = new Date('2024-06-01T12:00:00.000Z');

const t = testAppForFile({ clock: () => now, tenants: ['owner', 'stranger'] });
const { addOne, update, remove } = recordWritesForFile(t);

describe('deleteListItem (deleteListItem)', () => {
  it.each(TRANSPORTS)(
    'deletes the record with 204 and no body, then answers 404 via %s',
    async (via) => {
      const item = await addOne();
      const res = await remove({ item_id: item.id }, via);
      expect(res.status).toBe(204);
      expect(res.body).toBe('');
      const again = await remove({ item_id: item.id }, via);
      expect(again.status).toBe(404);
      expect(again.body.errors).toHaveProperty('item_id');
      expect((await update({ item_id: item.id, data: { title: 'x' } })).status).toBe(404);
    },
  );

  it('keeps the list counter in step with deletes', async () => {
    const own = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const a = await addOne({ a: '1' }, own);
    await addOne({ a: '2' }, own);
    expect(await itemCount(t.db, own.id)).toBe(2);
    await remove({ item_id: a.id });
    await remove({ item_id: a.id });
    expect(await itemCount(t.db, own.id)).toBe(1);
    const page = await call(t.app, 'getListItems', { schema_id: own.id }, { key: t.owner.apiKey });
    expect(page.body.meta.total).toBe(1);
  });

  it("answers 403 for another account's record and leaves it in place", async () => {
    const item = await addOne();
    expect((await remove({ item_id: item.id }, 'json', t.stranger.apiKey)).status).toBe(403);
    expect(await rawRecord(t.db, item.id)).toBeDefined();
  });

  it('answers 404 for records of a deleted list on update, delete and getListItems (deleteListSchema)', async () => {
    const doomed = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const item = await addOne({ a: 'x' }, doomed);
    await markListDeleted(t.db, doomed.id);
    expect((await update({ item_id: item.id, data: { a: 'y' } })).status).toBe(404);
    expect((await remove({ item_id: item.id })).status).toBe(404);
    const page = await call(
      t.app,
      'getListItems',
      { schema_id: doomed.id },
      { key: t.owner.apiKey },
    );
    expect(page.status).toBe(404);
    expect(page.body.errors).toHaveProperty('schema_id');
    const add = await call(
      t.app,
      'addListItem',
      { schema_id: doomed.id, data: { a: 'z' } },
      { key: t.owner.apiKey },
    );
    expect(add.status).toBe(404);
  });

  it.each([
    [{}, 'item_id'],
    [{ item_id: '' }, 'item_id'],
    [{ item_id: ['a', 'b'] }, 'item_id'],
  ])('answers 422 for a missing or malformed item_id (%j)', async (params, key) => {
    const res = await remove(params);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([key]);
  });
});
