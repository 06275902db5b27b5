import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSchemas } from '../../src/infra/db/schema/index.js';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { addItemViaApi, createListViaApi } from '../helpers/viaApi.js';

// getListItems remembers answers per list version (src/lists/items/readCache.ts). Two
// instances on one database: one reads (and remembers), the other writes; every read after a
// write must show it, whichever instance wrote.
let reader: TestApp;
let writer: TestApp;
let owner: Tenant;

beforeAll(async () => {
  reader = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  writer = await startTestApp({
    database: reader.database,
    env: { RATE_LIMIT_PER_MINUTE: '100000' },
  });
  owner = await makeTenant(reader.db);
});
afterAll(async () => {
  await writer.close();
  await reader.close();
});

const FIELDS = [
  { name: 'City', slug: 'city', type: 'string' },
  { name: 'Price', slug: 'price', type: 'number' },
];

async function read(app: TestApp, schemaId: string, extra: Record<string, unknown> = {}) {
  const res = await call(
    app.app,
    'getListItems',
    { schema_id: schemaId, filters: { city: 'Oslo' }, order_by: 'price,desc', ...extra },
    { key: owner.apiKey },
  );
  expect(res.status).toBe(200);
  return {
    total: res.body.meta.total as number,
    prices: res.body.data.map((i: { price: number }) => i.price),
  };
}

async function version(schemaId: string): Promise<number> {
  const [row] = await reader.db.select().from(listSchemas).where(eq(listSchemas.id, schemaId));
  return row!.version;
}

describe('getListItems answers stay exact while they are remembered', () => {
  it('shows every kind of write made through another instance on the next read', async () => {
    const list = await createListViaApi(reader.app, owner, FIELDS);
    const first = await addItemViaApi(writer.app, owner, list.id, { city: 'Oslo', price: 1 });
    await addItemViaApi(writer.app, owner, list.id, { city: 'Rome', price: 2 });
    expect(await read(reader, list.id)).toEqual({ total: 1, prices: [1] });
    expect(await read(reader, list.id)).toEqual({ total: 1, prices: [1] }); // remembered

    const steps: [string, () => Promise<unknown>, { total: number; prices: number[] }][] = [
      [
        'add',
        () => addItemViaApi(writer.app, owner, list.id, { city: 'Oslo', price: 5 }),
        { total: 2, prices: [5, 1] },
      ],
      [
        'update',
        () =>
          call(
            writer.app,
            'updateListItem',
            { item_id: first.id, data: { price: 9 } },
            { key: owner.apiKey },
          ),
        { total: 2, prices: [9, 5] },
      ],
      [
        'update out of the filter',
        () =>
          call(
            writer.app,
            'updateListItem',
            { item_id: first.id, data: { city: 'Rome' } },
            { key: owner.apiKey },
          ),
        { total: 1, prices: [5] },
      ],
      [
        'delete',
        async () => {
          const page = await call(
            writer.app,
            'getListItems',
            { schema_id: list.id, filters: { city: 'Oslo' } },
            { key: owner.apiKey },
          );
          await call(
            writer.app,
            'deleteListItem',
            { item_id: page.body.data[0].id },
            { key: owner.apiKey },
          );
        },
        { total: 0, prices: [] },
      ],
    ];
    for (const [what, write, expected] of steps) {
      const before = await version(list.id);
      await write();
      expect(await version(list.id), `${what} bumps the version`).toBeGreaterThan(before);
      expect(await read(reader, list.id), `after ${what}`).toEqual(expected);
    }
  });

  it('shows a field added or deleted through another instance', async () => {
    const list = await createListViaApi(reader.app, owner, FIELDS);
    await addItemViaApi(writer.app, owner, list.id, { city: 'Oslo', price: 3 });
    const keys = async () => {
      const res = await call(
        reader.app,
        'getListItems',
        { schema_id: list.id },
        { key: owner.apiKey },
      );
      return Object.keys(res.body.data[0]);
    };
    expect(await keys()).toContain('price');
    const before = await version(list.id);
    const deleted = await call(
      writer.app,
      'deleteListSchemaField',
      { schema_id: list.id, slug: 'price' },
      { key: owner.apiKey },
    );
    expect(deleted.status).toBe(204);
    expect(await version(list.id)).toBeGreaterThan(before);
    expect(await keys()).not.toContain('price');
    const added = await call(
      writer.app,
      'addListSchemaField',
      { schema_id: list.id, field: { name: 'Note', slug: 'note', type: 'string' } },
      { key: owner.apiKey },
    );
    expect(added.status).toBe(204);
    expect(await keys()).toContain('note');
  });

  it('answers a filter written in another order from the same remembered total', async () => {
    const list = await createListViaApi(reader.app, owner, FIELDS);
    await addItemViaApi(writer.app, owner, list.id, { city: 'Oslo', price: 3 });
    const one = await read(reader, list.id, { filters: { city: 'Oslo', price: '>=,1' } });
    const other = await read(reader, list.id, { filters: { price: '>=,1', city: 'Oslo' } });
    expect(other).toEqual(one);
  });

  it('answers a remembered page byte for byte as the first time, kept as JSON or sealed', async () => {
    // all-digit slugs keep their place (OrderedObject); money and dates are rendered values
    const plain = await createListViaApi(reader.app, owner, [
      { name: 'City', slug: 'city', type: 'string' },
      { name: 'Year', slug: '2024', type: 'number' },
      { name: 'Paid', slug: 'paid', type: 'money', currency: 'EUR' },
      { name: 'Day', slug: 'day', type: 'date' },
    ]);
    const sealed = await createListViaApi(reader.app, owner, [
      { name: 'City', slug: 'city', type: 'string' },
      { name: 'Secret', slug: 'secret', type: 'string', is_encryptable: true },
    ]);
    await addItemViaApi(writer.app, owner, plain.id, {
      city: 'Oslo',
      2024: 7,
      paid: '10.5',
      day: '2024-02-29',
    });
    await addItemViaApi(writer.app, owner, sealed.id, { city: 'Oslo', secret: 'öl & "x"' });
    const page = (schemaId: string) =>
      call(reader.app, 'getListItems', { schema_id: schemaId }, { key: owner.apiKey });
    for (const list of [plain, sealed]) {
      const first = await page(list.id);
      const again = await page(list.id);
      expect(again.raw.body).toBe(first.raw.body);
      // keys in the order they were written (JSON.parse would move "2024" first)
      const item = first.raw.body.slice(first.raw.body.indexOf('[{'));
      const keys = [...item.matchAll(/"([^"]+)":/g)].map((m) => m[1]).slice(0, 7);
      expect(keys).toEqual(
        list === plain
          ? ['id', 'city', '2024', 'paid', 'day', 'created_at', 'updated_at']
          : ['id', 'city', 'secret', 'created_at', 'updated_at', 'links', 'first'],
      );
    }
    expect((await page(sealed.id)).body.data[0].secret).toBe('öl & "x"');
    // what is held: written JSON for the plain list, the sealed rows for the other
    const held = [...reader.deps.lists.readCache['remembered'].pages].map(([, page]) => page);
    const text = held.flatMap((p) => ('json' in p ? p.json.map((j) => j.text) : []));
    const rows = held.flatMap((p) => ('rows' in p ? p.rows : []));
    expect(text.some((t) => t.includes('"2024":7'))).toBe(true);
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain('öl');
  });

  it('keeps nothing with LIST_CACHE_ROWS=0 and still answers', async () => {
    const off = await startTestApp({ database: reader.database, env: { LIST_CACHE_ROWS: '0' } });
    try {
      expect(off.deps.lists.readCache.enabled).toBe(false);
      const list = await createListViaApi(off.app, owner, FIELDS);
      await addItemViaApi(off.app, owner, list.id, { city: 'Oslo', price: 4 });
      expect(await read(off, list.id)).toEqual({ total: 1, prices: [4] });
    } finally {
      await off.close();
    }
  });
});
