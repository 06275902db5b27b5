import { beforeAll, describe, expect, it } from 'vitest';
import { call, TRANSPORTS, type Transport } from '../helpers/call.js';
import { seedContact } from '../helpers/contacts.js';
import { createBot } from '../helpers/factories.js';
import { makeList, type TestList } from '../helpers/lists.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

let list: TestList;
const ids: Record<string, string> = {};
let tick = Date.parse('2024-01-01T00:00:00Z');

// each record gets its own created_at, one second apart, in insertion order
const t = testAppForFile({ clock: () => new Date((tick += 1000)), tenants: ['owner', 'stranger'] });
beforeAll(async () => {
  list = await makeList(t.db, t.owner, [
    { slug: 'name', type: 'string' },
    { slug: 'n', type: 'number' },
    { slug: 'price', type: 'money' },
    { slug: 'ok', type: 'bool' },
    { slug: 'day', type: 'date' },
    { slug: 'photo', type: 'image' },
  ]);
  const rows: Record<string, Record<string, unknown>> = {
    a: { name: 'b', n: 10, price: '2.5', ok: true, day: '2024-01-03' },
    b: { name: 'a', n: 9, price: '10', ok: false, day: '2024-01-01' },
    c: { name: 'C', n: 100, price: '2.50', ok: true },
    d: { name: 'a', n: -1, day: '2024-01-02' },
    e: {},
  };
  for (const [key, data] of Object.entries(rows)) {
    const res = await call(
      t.app,
      'addListItem',
      { schema_id: list.id, data },
      { key: t.owner.apiKey },
    );
    ids[key] = res.body.data.id;
  }
});

const get = (params: Record<string, unknown>, via: Transport = 'json', key = t.owner.apiKey) =>
  call(t.app, 'getListItems', { schema_id: list.id, ...params }, { key, via });

const keysOf = (body: { data: { id: string }[] }) => {
  const byId = Object.fromEntries(Object.entries(ids).map(([k, id]) => [id, k]));
  return body.data.map((r) => byId[r.id] ?? r.id);
};

describe('getListItems ordering (getListItems order_by)', () => {
  it.each([
    ['n,asc', ['d', 'b', 'a', 'c', 'e']],
    ['n,desc', ['c', 'a', 'b', 'd', 'e']],
    ['n', ['d', 'b', 'a', 'c', 'e']],
    ['price,asc', ['a', 'c', 'b', 'd', 'e']],
    ['ok,asc', ['b', 'a', 'c', 'd', 'e']],
    ['day,desc', ['a', 'd', 'b', 'e', 'c']],
    ['name,asc', ['c', 'b', 'd', 'a', 'e']],
    ['name,DESC', ['a', 'd', 'b', 'c', 'e']],
    ['created_at,desc', ['e', 'd', 'c', 'b', 'a']],
    ['updated_at,asc', ['a', 'b', 'c', 'd', 'e']],
  ])(
    'sorts by %s, missing values last, ties broken by id in the same direction',
    async (orderBy, expected) => {
      const res = await get({ order_by: orderBy });
      expect(res.status).toBe(200);
      expect(keysOf(res.body)).toEqual(expected);
    },
  );

  it('defaults to insertion order without order_by', async () => {
    expect(keysOf((await get({})).body)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it.each(['nope,asc', 'n,sideways', 'photo,asc', 'n,asc,extra', 'id,asc'])(
    'answers 422 under order_by for %s',
    async (orderBy) => {
      const res = await get({ order_by: orderBy });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['order_by']);
    },
  );

  it('pages through a sort with ties without overlap or gaps', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const res = await get({ order_by: 'name,asc', limit: 1, page });
      seen.push(...keysOf(res.body));
    }
    expect(seen.sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('getListItems paging (the paging envelope, 4.7 limit)', () => {
  it.each(TRANSPORTS)(
    'answers the paging envelope with absolute page links via %s',
    async (via) => {
      const res = await get({ limit: '2', page: '2', order_by: 'created_at,asc' }, via);
      expect(res.status).toBe(200);
      expect(keysOf(res.body)).toEqual(['c', 'd']);
      const path = 'http://api.test/api/v1/getListItems';
      expect(res.body.links).toEqual({
        first: `${path}?page=1`,
        last: `${path}?page=3`,
        prev: `${path}?page=1`,
        next: `${path}?page=3`,
      });
      expect(res.body.meta).toEqual({
        current_page: 2,
        from: 3,
        last_page: 3,
        path,
        per_page: 2,
        to: 4,
        total: 5,
      });
    },
  );

  it('defaults to 50 per page and returns an empty page past the end', async () => {
    expect((await get({})).body.meta.per_page).toBe(50);
    const past = await get({ page: 99 });
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toMatchObject({ from: null, to: null, total: 5 });
  });

  it.each([
    ['limit', 1001],
    ['limit', 0],
    ['limit', 'ten'],
    ['page', 0],
    ['page', -1],
  ])('answers 422 for %s=%s', async (param, value) => {
    const res = await get({ [param]: value });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([param]);
  });

  it('accepts limit 1000', async () => {
    expect((await get({ limit: 1000 })).status).toBe(200);
  });
});

describe('getListItems filters through every transport (getListItems)', () => {
  it.each(TRANSPORTS)('applies operator strings, bool forms and AND via %s', async (via) => {
    const res = await get(
      { filters: { n: '>=,9', ok: '1', price: '<,5' }, order_by: 'n,desc' },
      via,
    );
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(['c', 'a']);
    expect(res.body.meta.total).toBe(2);
  });

  it.each(TRANSPORTS)('counts a filtered total over all pages via %s', async (via) => {
    const res = await get({ filters: { name: 'like,%' }, limit: 1 }, via);
    expect(res.body.meta).toMatchObject({ total: 4, last_page: 4 });
  });

  it.each(TRANSPORTS)(
    'answers 422 under filters.<slug> for unsuitable values via %s',
    async (via) => {
      const res = await get(
        { filters: { n: 'abc', price: 'like,1%', ok: '<,1', day: '2024-13-01' } },
        via,
      );
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors).sort()).toEqual([
        'filters.day',
        'filters.n',
        'filters.ok',
        'filters.price',
      ]);
    },
  );

  it('answers 422 under filters.<slug> for an object value', async () => {
    const res = await get({ filters: { name: { x: 1 } } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['filters.name']);
  });

  it.each(TRANSPORTS)(
    'answers 422 under filters when filters is not an object via %s',
    async (via) => {
      const res = await get({ filters: 'name=a' }, via);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['filters']);
    },
  );

  it('limits like patterns to 255 characters and 10 %, consecutive % counting as one', async () => {
    const long = await get({ filters: { name: `like,${'a'.repeat(256)}` } });
    expect(long.status).toBe(422);
    expect((await get({ filters: { name: `like,${'a'.repeat(255)}` } })).status).toBe(200);
    const eleven = await get({ filters: { name: `like,${'%a'.repeat(11)}` } });
    expect(eleven.status).toBe(422);
    expect(Object.keys(eleven.body.errors)).toEqual(['filters.name']);
    const runs = await get({ filters: { name: `like,${'%%%a'.repeat(10)}%%` } });
    expect(runs.status).toBe(422);
    const tenRuns = await get({ filters: { name: `like,${'%%%a'.repeat(10)}` } });
    expect(tenRuns.status).toBe(200);
  });

  it('sends % URL-encoded in GET as the spec asks', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/getListItems?schema_id=${list.id}&filters%5Bname%5D=like%2C%25`,
      headers: { accept: 'application/json', authorization: `Bearer ${t.owner.apiKey}` },
    });
    expect(res.json().meta.total).toBe(4);
  });
});

describe('all-digit slugs in text (bracket notation reads `[5]` and `[492]` as keys)', () => {
  it.each(TRANSPORTS)('writes and filters fields named 5 and 492 via %s', async (via) => {
    const digits = await makeList(t.db, t.owner, [
      { slug: '5', type: 'string' },
      { slug: '492', type: 'number' },
    ]);
    const added = await call(
      t.app,
      'addListItem',
      { schema_id: digits.id, data: { 5: 'five', 492: 7 } },
      { key: t.owner.apiKey, via: via === 'query' ? 'form' : via },
    );
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ 5: 'five', 492: 7 });
    await call(
      t.app,
      'addListItem',
      { schema_id: digits.id, data: { 5: 'other', 492: 8 } },
      { key: t.owner.apiKey },
    );
    const found = await call(
      t.app,
      'getListItems',
      { schema_id: digits.id, filters: { 492: '<,8', 5: 'five' } },
      { key: t.owner.apiKey, via },
    );
    expect(found.status).toBe(200);
    expect(found.body.data.map((r: { id: string }) => r.id)).toEqual([added.body.data.id]);
  });
});

describe('getListItems contact_id / bot_id (getListItems)', () => {
  it.each(TRANSPORTS)(
    'matches records linked through any contact or bot field via %s',
    async (via) => {
      const linked = await makeList(t.db, t.owner, [
        { slug: 'buyer', type: 'contact' },
        { slug: 'seller', type: 'contact' },
        { slug: 'origin', type: 'bot' },
        { slug: 'secret_contact', type: 'contact', is_encryptable: true },
      ]);
      const c1 = await seedContact(t.db, t.owner.botId);
      const c2 = await seedContact(t.db, t.owner.botId);
      const bot2 = await createBot(t.db, t.owner.projectUuid, 'B2');
      const add = async (data: Record<string, unknown>) =>
        (await call(t.app, 'addListItem', { schema_id: linked.id, data }, { key: t.owner.apiKey }))
          .body.data.id as string;
      const x = await add({ buyer: c1, seller: c2 });
      const y = await add({ seller: c1, origin: bot2.id });
      await add({ buyer: c2, secret_contact: c1 });
      const byContact = await call(
        t.app,
        'getListItems',
        { schema_id: linked.id, contact_id: String(c1), order_by: 'created_at' },
        { key: t.owner.apiKey, via },
      );
      expect(byContact.body.data.map((r: { id: string }) => r.id)).toEqual([x, y]);
      expect(byContact.body.meta.total).toBe(2);
      expect(byContact.body.data[0].contact_id).toBe(c1);
      expect(byContact.body.data[1].contact_id).toBeUndefined();
      const byBot = await call(
        t.app,
        'getListItems',
        { schema_id: linked.id, bot_id: bot2.id },
        { key: t.owner.apiKey, via },
      );
      expect(byBot.body.data.map((r: { id: string }) => r.id)).toEqual([y]);
    },
  );

  it('finds nothing by contact_id in a list without contact fields', async () => {
    const res = await get({ contact_id: 1 });
    expect(res.body).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it('answers 422 for a contact_id that is not an integer', async () => {
    const res = await get({ contact_id: 'abc' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['contact_id']);
  });
});

describe('getListItems access (getListItems errors)', () => {
  it('answers 404 with errors.schema_id for an unknown list', async () => {
    const res = await call(
      t.app,
      'getListItems',
      { schema_id: 'missing' },
      { key: t.owner.apiKey },
    );
    expect(res.status).toBe(404);
    expect(res.body.errors.schema_id).toHaveLength(1);
  });

  it("answers 403 for another account's list", async () => {
    expect((await get({}, 'json', t.stranger.apiKey)).status).toBe(403);
  });

  it('answers 422 when schema_id is missing', async () => {
    const res = await call(t.app, 'getListItems', {}, { key: t.owner.apiKey });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('schema_id');
  });

  it('never answers 500 to hostile input: NUL in ids and values, absurd pages', async () => {
    const nulList = await call(
      t.app,
      'getListItems',
      { schema_id: 'a\u0000b' },
      { key: t.owner.apiKey },
    );
    expect(nulList.status).toBe(404);
    const nulItem = await call(
      t.app,
      'updateListItem',
      { item_id: 'a\u0000b', data: { name: 'x' } },
      { key: t.owner.apiKey },
    );
    expect(nulItem.status).toBe(404);
    const nulValue = await get({ filters: { name: 'like,%\u0000%' } });
    expect(nulValue.status).toBe(422);
    const far = await get({ page: Number.MAX_SAFE_INTEGER, limit: 1000 });
    expect(far.status).toBe(200);
    expect(far.body).toMatchObject({ data: [], meta: { total: 5 } });
  });
});
