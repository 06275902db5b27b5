import { describe, expect, it } from 'vitest';
import { call, TRANSPORTS } from '../helpers/call.js';
import { seedContact } from '../helpers/contacts.js';
import { itemCount, makeList, rawRecord, type TestList } from '../helpers/lists.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';

const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner', 'stranger'] });

const FIELDS = [
  { slug: 'title', type: 'string', is_required: true },
  { slug: 'qty', type: 'number' },
  { slug: 'who', type: 'contact' },
  { slug: 'secret', type: 'string', is_encryptable: true },
];
const newList = (): Promise<TestList> => makeList(t.db, t.owner, FIELDS);

const addMany = (
  params: Record<string, unknown>,
  via: (typeof TRANSPORTS)[number] = 'json',
  key = t.owner.apiKey,
) => call(t.app, 'addListItems', params, { key, via });

const read = async (schemaId: string) =>
  (await call(t.app, 'getListItems', { schema_id: schemaId, limit: 1000 }, { key: t.owner.apiKey }))
    .body;

describe('addListItems', () => {
  it.each(TRANSPORTS)(
    'adds every item in order and answers 201 with the records via %s',
    async (via) => {
      const list = await newList();
      const res = await addMany(
        {
          schema_id: list.id,
          items: [{ title: 'a', qty: '1' }, { title: 'b', secret: 's' }, { title: 'c' }],
        },
        via,
      );
      expect(res.status).toBe(201);
      expect(res.body.data.map((r: { title: string }) => r.title)).toEqual(['a', 'b', 'c']);
      expect(res.body.data[1].secret).toBe('s');
      const page = await read(list.id);
      expect(page.meta.total).toBe(3);
      expect(page.data.map((r: { id: string }) => r.id).sort()).toEqual(
        res.body.data.map((r: { id: string }) => r.id).sort(),
      );
      // stored as addListItem stores one: slots filled, the encrypted value sealed
      const stored = await rawRecord(t.db, res.body.data[0].id);
      expect(stored).toMatchObject({ t1: 'a', n1: '1' });
      expect(JSON.stringify((await rawRecord(t.db, res.body.data[1].id))!.data)).not.toContain(
        '"s"',
      );
      expect(await itemCount(t.db, list.id)).toBe(3);
    },
  );

  it('answers like addListItem: the same record shape for the same data', async () => {
    const list = await newList();
    const one = await call(
      t.app,
      'addListItem',
      { schema_id: list.id, data: { title: 'x', qty: 2 } },
      { key: t.owner.apiKey },
    );
    const many = await addMany({ schema_id: list.id, items: [{ title: 'x', qty: 2 }] });
    const shape = (r: Record<string, unknown>) => ({
      ...r,
      id: 'id',
      created_at: 't',
      updated_at: 't',
    });
    expect(shape(many.body.data[0])).toEqual(shape(one.body.data));
  });

  it('writes nothing when one item fails and lists every error under items.<index>', async () => {
    const list = await newList();
    const res = await addMany({
      schema_id: list.id,
      items: [{ title: 'ok' }, { qty: 'x' }, { title: 'fine' }, { title: 'y', qty: 'z' }],
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual([
      'items.1.qty',
      'items.1.title',
      'items.3.qty',
    ]);
    expect(res.body.errors['items.1.title']).toEqual(['The items.1.title field is required.']);
    expect(await itemCount(t.db, list.id)).toBe(0);
  });

  it('with atomic=false writes the valid items and gives one outcome per item', async () => {
    const list = await newList();
    const res = await addMany({
      schema_id: list.id,
      atomic: false,
      items: [
        { title: 'ok' },
        { qty: 'x' },
        { title: 'fine', who: 999_999_999 },
        { title: 'last' },
      ],
    });
    expect(res.status).toBe(200);
    expect(
      res.body.data.map((o: { index: number; status: number }) => [o.index, o.status]),
    ).toEqual([
      [0, 201],
      [1, 422],
      [2, 422],
      [3, 201],
    ]);
    expect(res.body.data[2].errors).toEqual({
      'items.2.who': ['The selected items.2.who is invalid.'],
    });
    expect(res.body.data[3].data.title).toBe('last');
    expect(await itemCount(t.db, list.id)).toBe(2);
  });

  it('checks contacts for the whole batch: another account’s contact is a 403 and nothing is written', async () => {
    const list = await newList();
    const mine = await seedContact(t.db, t.owner.botId);
    const theirs = await seedContact(t.db, t.stranger.botId);
    const res = await addMany({
      schema_id: list.id,
      items: [
        { title: 'a', who: mine },
        { title: 'b', who: theirs },
      ],
    });
    expect(res.status).toBe(403);
    expect(await itemCount(t.db, list.id)).toBe(0);
    const ok = await addMany({
      schema_id: list.id,
      items: [
        { title: 'a', who: mine },
        { title: 'b', who: mine },
      ],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.map((r: { contact_id: number }) => r.contact_id)).toEqual([mine, mine]);
  });

  it.each([
    [{ items: [] }, 'items'],
    [{ items: 'x' }, 'items.0'],
    [{ items: Array.from({ length: 1001 }, () => ({ title: 't' })) }, 'items'],
    [{ items: [{ title: 't' }], atomic: 'maybe' }, 'atomic'],
    [{ schema_id: undefined, items: [{ title: 't' }] }, 'schema_id'],
  ])('answers 422 for %j under %s', async (override, key) => {
    const list = await newList();
    const res = await addMany({ schema_id: list.id, ...override });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(key);
    expect(await itemCount(t.db, list.id)).toBe(0);
  });

  it('takes 1000 items in one call', async () => {
    const list = await newList();
    const items = Array.from({ length: 1000 }, (_, i) => ({ title: `t${i}`, qty: i }));
    const res = await addMany({ schema_id: list.id, items });
    expect(res.status).toBe(201);
    expect(res.body.data).toHaveLength(1000);
    expect(await itemCount(t.db, list.id)).toBe(1000);
    const filtered = await call(
      t.app,
      'getListItems',
      { schema_id: list.id, filters: { qty: '>=,990' } },
      { key: t.owner.apiKey },
    );
    expect(filtered.body.meta.total).toBe(10);
  });

  it('answers 404 for a missing list and 403 for another account’s list, writing nothing', async () => {
    const missing = await addMany({
      schema_id: '01900000-0000-7000-8000-000000000000',
      items: [{ title: 'a' }],
    });
    expect(missing.status).toBe(404);
    expect(Object.keys(missing.body.errors)).toEqual(['schema_id']);
    const theirs = await makeList(t.db, t.stranger, FIELDS);
    const denied = await addMany({ schema_id: theirs.id, items: [{ title: 'a' }] });
    expect(denied.status).toBe(403);
    expect(await itemCount(t.db, theirs.id)).toBe(0);
  });
});

describe('addListItems: one item alone', () => {
  it('takes a single object in place of a list of one', async () => {
    const list = await newList();
    const res = await addMany({ schema_id: list.id, items: { title: 'alone' } });
    expect(res.status).toBe(201);
    expect(res.body.data.map((r: { title: string }) => r.title)).toEqual(['alone']);
  });
});

describe('addListItems: all-digit slugs in text', () => {
  it('reads items[6]=… as one item with the field 6, in a form body and a query string', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: '6', type: 'string' }]);
    for (const via of ['form', 'query'] as const) {
      const res = await addMany({ schema_id: list.id, items: { 6: `six by ${via}` } }, via);
      expect(res.status).toBe(201);
      expect(res.body.data.map((r: Record<string, string>) => r['6'])).toEqual([`six by ${via}`]);
    }
    expect(await itemCount(t.db, list.id)).toBe(2);
  });

  it('still refuses an array of plain values in a JSON body, item by item', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: '6', type: 'string' }]);
    const res = await addMany({ schema_id: list.id, items: ['x'] });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['items.0']);
    expect(await itemCount(t.db, list.id)).toBe(0);
  });
});
