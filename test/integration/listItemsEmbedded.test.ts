import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openEmbedded, type Database } from '../../src/infra/db/client.js';
import { migrateEmbedded } from '../../src/infra/db/migrate.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { call } from '../helpers/call.js';
import { seedContact } from '../helpers/contacts.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { itemCount, makeList, type TestList } from '../helpers/lists.js';
import { TEST_ENCRYPTION_KEY } from '../helpers/testApp.js';

/**
 * The record methods on embedded PGlite: the same SQL as on Postgres —
 * prepared lookups, the guarded insert, slot and JSONB filters, ILIKE, day ranges, sorts.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'lk-records-embedded-'));
let runtime: Runtime;
let app: FastifyInstance;
let owner: Tenant;
let list: TestList;
let db: Database;
const ids: Record<string, string> = {};

beforeAll(async () => {
  const handle = await openEmbedded(dataDir);
  db = handle.db;
  await migrateEmbedded(handle.pglite);
  const config = loadConfig({
    DATA_DIR: dataDir,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    LOG_LEVEL: 'silent',
  });
  // lists of a few records: a new bound takes any neighbour's total (rangeNeighbours.ts)
  runtime = createRuntime(config, handle, pino({ level: 'silent' }), { neighbourMinTotal: 0 });
  app = buildApp(runtime.deps);
  await app.ready();
  owner = await makeTenant(handle.db);
  const contact = await seedContact(handle.db, owner.botId);
  list = await makeList(handle.db, owner, [
    { slug: 's1', type: 'string' },
    { slug: 's2', type: 'string' },
    { slug: 's3', type: 'string' },
    { slug: 'note', type: 'string' }, // no slot left: JSONB fallback
    { slug: 'n', type: 'number' },
    { slug: 'day', type: 'date' },
    { slug: 'who', type: 'contact' },
    { slug: 'secret', type: 'string', is_encryptable: true },
  ]);
  const rows: Record<string, Record<string, unknown>> = {
    a: { s1: 'Alpha', note: 'Ёжик в тумане', n: 5, day: '2024-03-10', who: contact, secret: 'x' },
    b: { s1: 'beta', note: 'plain', n: 50, day: '2024-03-11' },
    c: { s1: 'ALPINE', n: -1 },
  };
  for (const [key, data] of Object.entries(rows)) {
    const res = await call(app, 'addListItem', { schema_id: list.id, data }, { key: owner.apiKey });
    expect(res.status).toBe(201);
    ids[key] = res.body.data.id;
  }
}, 120_000);
afterAll(async () => {
  await app?.close();
  await runtime?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const keys = (body: { data: { id: string }[] }) =>
  body.data.map((r) => Object.entries(ids).find(([, id]) => id === r.id)?.[0]);

describe('list records on embedded PGlite (getListItems, addListItem, updateListItem, deleteListItem)', () => {
  it.each([
    [{ s1: 'like,al%' }, ['c', 'a']],
    // PGlite runs in the C locale: like folds ASCII case only there (docs/records.md)
    [{ note: 'like,%тумане' }, ['a']],
    [{ note: 'not like,%ёж%' }, ['b']],
    [{ n: '>=,5' }, ['a', 'b']],
    [{ day: '<=,2024-03-10' }, ['a']],
  ])('runs a filtered query %j', async (filters, expected) => {
    const res = await call(
      app,
      'getListItems',
      { schema_id: list.id, filters, order_by: 'n,asc' },
      { key: owner.apiKey, via: 'query' },
    );
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(expected);
    expect(res.body.meta.total).toBe(expected.length);
  });

  it('sorts by a JSONB field, reads the counter total and decrypts', async () => {
    const res = await call(
      app,
      'getListItems',
      { schema_id: list.id, order_by: 'note,desc' },
      { key: owner.apiKey },
    );
    expect(keys(res.body)).toEqual(['a', 'b', 'c']);
    expect(res.body.meta.total).toBe(3);
    expect(res.body.data[0].secret).toBe('x');
  });

  it('updates and deletes records', async () => {
    const updated = await call(
      app,
      'updateListItem',
      { item_id: ids.c, data: { n: 7 } },
      { key: owner.apiKey },
    );
    expect(updated.body.data).toMatchObject({ s1: 'ALPINE', n: 7 });
    expect(
      (await call(app, 'deleteListItem', { item_id: ids.c }, { key: owner.apiKey })).status,
    ).toBe(204);
    const res = await call(app, 'getListItems', { schema_id: list.id }, { key: owner.apiKey });
    expect(res.body.meta.total).toBe(2);
  });

  it('records every change and serves the feed from snapshots (getChanges)', async () => {
    const seen: { type: string; item_id?: string; data: Record<string, unknown> | null }[] = [];
    let since: string | undefined;
    for (;;) {
      const res = await call(
        app,
        'getChanges',
        { limit: 2, ...(since ? { since } : {}) },
        { key: owner.apiKey },
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.data);
      since = res.body.meta.next_cursor;
      if (!res.body.meta.has_more) break;
    }
    expect(seen.filter((c) => c.type === 'list_item.created')).toHaveLength(3);
    const first = seen.find((c) => c.item_id === ids.a && c.type === 'list_item.created');
    expect(first?.data).toMatchObject({ s1: 'Alpha', secret: 'x' });
    const head = await call(app, 'getChanges', { since }, { key: owner.apiKey });
    expect([head.status, head.body.data]).toEqual([200, []]);
  });
});

describe('addListItems and updateListItems on embedded PGlite (one statement per batch)', () => {
  it('writes a batch with its counter, and an all-or-nothing batch with a bad item not at all', async () => {
    const other = await makeTenant(db);
    const batchList = await makeList(db, other, [
      { slug: 'title', type: 'string' },
      { slug: 'qty', type: 'number' },
    ]);
    const items = [{ title: 'a', qty: 1 }, { title: 'b' }, { title: 'c', qty: 3 }];
    const ok = await call(
      app,
      'addListItems',
      { schema_id: batchList.id, items },
      { key: other.apiKey },
    );
    expect(ok.status).toBe(201);
    expect(ok.body.data.map((r: { title: string }) => r.title)).toEqual(['a', 'b', 'c']);
    const bad = await call(
      app,
      'addListItems',
      { schema_id: batchList.id, items: [{ title: 'd' }, { title: 'e', qty: 'many' }] },
      { key: other.apiKey },
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['items.1.qty']);
    expect(await itemCount(db, batchList.id)).toBe(3);
    const page = await call(
      app,
      'getListItems',
      { schema_id: batchList.id, filters: { qty: '>=,1' } },
      { key: other.apiKey },
    );
    expect(page.body.meta.total).toBe(2);

    const ids = ok.body.data.map((r: { id: string }) => r.id);
    const changed = await call(
      app,
      'updateListItems',
      {
        schema_id: batchList.id,
        items: [
          { item_id: ids[1], data: { qty: 2 } },
          { item_id: ids[2], data: { title: 'C' } },
        ],
      },
      { key: other.apiKey },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.data.map((r: { title: string; qty: number }) => [r.title, r.qty])).toEqual([
      ['b', 2],
      ['C', 3],
    ]);
    const after = await call(
      app,
      'getListItems',
      { schema_id: batchList.id, filters: { qty: '>=,2' }, order_by: 'qty,asc' },
      { key: other.apiKey },
    );
    expect(after.body.data.map((r: { title: string }) => r.title)).toEqual(['b', 'C']);
  });
});

describe('filtered totals between writes on embedded PGlite', () => {
  it('advances a remembered total over a write and starts a new bound from its neighbour', async () => {
    const other = await makeTenant(db);
    const prices = await makeList(db, other, [{ slug: 'price', type: 'number' }]);
    const total = async (filters: Record<string, string>) => {
      const res = await call(
        app,
        'getListItems',
        { schema_id: prices.id, filters, order_by: 'price,asc' },
        { key: other.apiKey },
      );
      expect(res.status).toBe(200);
      return res.body.meta.total as number;
    };
    const add = async (price: number) => {
      const res = await call(
        app,
        'addListItem',
        { schema_id: prices.id, data: { price } },
        { key: other.apiKey },
      );
      expect(res.status).toBe(201);
    };
    for (const price of [1, 5, 12, 30]) await add(price);
    expect(await total({ price: '<,10' })).toBe(2);
    await add(7);
    // the same filter after a write: advanced (its statement named, as on Postgres)
    expect(await total({ price: '<,10' })).toBe(3);
    // a bound never sent: the neighbour's total and the band between them
    expect(await total({ price: '<,20' })).toBe(4);
    await add(15);
    expect(await total({ price: '<,25' })).toBe(5);
    expect(await total({ price: '>=,6' })).toBe(4);
    expect(await total({ price: '>=,2' })).toBe(5);
  });
});
