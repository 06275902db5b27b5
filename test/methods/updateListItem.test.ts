import { describe, expect, it } from 'vitest';
import { call, TRANSPORTS } from '../helpers/call.js';
import { seedContact } from '../helpers/contacts.js';
import { rawRecord } from '../helpers/lists.js';
import { recordWritesForFile } from '../helpers/recordWrites.js';
import { testAppForFile } from '../helpers/testAppForFile.js';
import { createListViaApi } from '../helpers/viaApi.js';

let now = new Date('2024-06-01T12:00:00.000Z');

const t = testAppForFile({ clock: () => now, tenants: ['owner', 'stranger'] });
const { addOne, update } = recordWritesForFile(t);

describe('updateListItem (updateListItem)', () => {
  it.each(TRANSPORTS)(
    'changes only the sent fields and answers 200 with the whole record via %s',
    async (via) => {
      const item = await addOne({ title: 'before', qty: 1, note: 'keep me' });
      now = new Date('2024-06-02T08:00:00.000Z');
      const res = await update({ item_id: item.id, data: { qty: '42', stranger_key: 'x' } }, via);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: item.id,
        title: 'before',
        qty: 42,
        note: 'keep me',
        created_at: item.created_at,
        updated_at: '2024-06-02T08:00:00.000Z',
      });
      const raw = await rawRecord(t.db, item.id);
      expect(raw).toMatchObject({ n1: '42', t1: 'before' });
    },
  );

  it.each(TRANSPORTS)(
    'skips null and empty values on optional fields, so a field cannot be cleared, via %s',
    async (via) => {
      const item = await addOne({ title: 't', qty: 1, note: 'stays' });
      const res = await update(
        { item_id: item.id, data: { note: via === 'json' ? null : '', title: 'changed' } },
        via,
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ note: 'stays', title: 'changed' });
    },
  );

  it('answers the year 1 as stored when the update changes nothing (not as 2001)', async () => {
    const list = await createListViaApi(t.app, t.owner, [
      { name: 'Day', slug: 'day', type: 'date', is_required: false },
      { name: 'At', slug: 'at', type: 'datetime', is_required: false },
    ]);
    const key = { key: t.owner.apiKey };
    const data = { day: '0001-01-01', at: '0001-02-03T04:05:06.007Z' };
    const added = await call(t.app, 'addListItem', { schema_id: list.id, data }, key);
    expect(added.status).toBe(201);
    const res = await call(
      t.app,
      'updateListItem',
      { schema_id: list.id, item_id: added.body.data.id, data: {} },
      key,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      day: '0001-01-01T00:00:00.000Z',
      at: '0001-02-03T04:05:06.007Z',
    });
  });

  it('answers 422 when a required field is sent empty, and validates only sent fields', async () => {
    const item = await addOne();
    const res = await update({ item_id: item.id, data: { title: '', qty: null, note: 'fine' } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['data.qty', 'data.title']);
    const wrongType = await update({ item_id: item.id, data: { qty: 'many' } });
    expect(wrongType.status).toBe(422);
    expect(Object.keys(wrongType.body.errors)).toEqual(['data.qty']);
  });

  it('checks contact values on update like on add (422 missing, 403 foreign)', async () => {
    const item = await addOne();
    expect((await update({ item_id: item.id, data: { who: 987654321 } })).status).toBe(422);
    const foreign = await seedContact(t.db, t.stranger.botId);
    expect((await update({ item_id: item.id, data: { who: foreign } })).status).toBe(403);
    const mine = await seedContact(t.db, t.owner.botId);
    const ok = await update({ item_id: item.id, data: { who: mine } });
    expect(ok.body.data).toMatchObject({ who: mine, contact_id: mine });
  });

  it('answers 404 with errors.item_id for an unknown record', async () => {
    const res = await update({ item_id: 'no-such-item', data: { title: 'x' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      message: expect.any(String),
      error: expect.any(String),
      errors: { item_id: [res.body.message] },
    });
  });

  it("answers 403 for another account's record", async () => {
    const item = await addOne();
    const res = await update({ item_id: item.id, data: { title: 'x' } }, 'json', t.stranger.apiKey);
    expect(res.status).toBe(403);
  });

  it('answers 422 when data is missing or not an object', async () => {
    const item = await addOne();
    expect((await update({ item_id: item.id })).body.errors).toHaveProperty('data');
    expect((await update({ item_id: item.id, data: 'text' })).status).toBe(422);
  });
});
