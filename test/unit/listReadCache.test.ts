import { describe, expect, it } from 'vitest';
import type { StoredField } from '../../src/infra/db/schema/listSchemas.js';
import type { ItemQuery } from '../../src/lists/filters/query.js';
import { ListReadCache, pageKey, selectionKey } from '../../src/lists/items/readCache.js';
import { JsonText } from '../../src/shared/orderedJson.js';

const row = (id: string) => ({ id, data: {}, createdAt: new Date(0), updatedAt: new Date(0) });
const rows = (n: number) => ({ rows: Array.from({ length: n }, (_, i) => row(String(i))) });
const json = (n: number) => ({
  json: Array.from({ length: n }, (_, i) => new JsonText(JSON.stringify({ id: String(i) }))),
});

const city: StoredField = {
  slug: 'city',
  name: 'City',
  type: 'string',
  is_required: false,
  is_hidden: false,
  is_encryptable: false,
  slot: 't1',
};
const price: StoredField = { ...city, slug: 'price', name: 'Price', type: 'number', slot: 'n1' };
const query = (conditions: ItemQuery['conditions']): ItemQuery => ({
  ownerId: 1,
  listId: 'l',
  fields: [city, price],
  conditions,
  links: {},
  sort: { by: 'created_at', direction: 'asc' },
});
const byCity = { field: city, kind: 'text' as const, op: '=' as const, operand: 'Oslo' };
const byPrice = { field: price, kind: 'numeric' as const, op: '>=' as const, operand: '1' };

describe('ListReadCache', () => {
  it('drops the least recently used pages once the row budget is spent', () => {
    const cache = new ListReadCache(100);
    cache.rememberPage('a', rows(50));
    cache.rememberPage('b', json(50));
    expect(cache.page('a')).toEqual(rows(50)); // a is now the most recent
    cache.rememberPage('c', rows(50));
    expect(cache.page('b')).toBeUndefined();
    expect(cache.page('a')).toEqual(rows(50));
    expect(cache.page('c')).toEqual(rows(50));
    // written JSON counts a row per record, as stored rows do
    cache.rememberPage('d', json(50));
    expect([cache.page('a'), cache.page('c'), cache.page('d')]).toEqual([
      undefined,
      rows(50),
      json(50),
    ]);
  });

  it('does not keep a page larger than the whole budget, nor anything when off', () => {
    const small = new ListReadCache(10);
    small.rememberPage('big', rows(11));
    small.rememberPage('big json', json(11));
    expect([small.page('big'), small.page('big json')]).toEqual([undefined, undefined]);
    const off = new ListReadCache(0);
    off.rememberPage('p', rows(1));
    off.rememberTotal('t', 3);
    expect([off.page('p'), off.total('t'), off.enabled]).toEqual([undefined, undefined, false]);
  });

  it('runs one count for every request that asks while it runs, then remembers it', async () => {
    const cache = new ListReadCache(100);
    let counts = 0;
    let finish!: (n: number) => void;
    const count = () => {
      counts++;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const asked = [cache.totalOr('s', count), cache.totalOr('s', count)];
    const other = cache.totalOr('other', () => Promise.resolve(7));
    expect(counts).toBe(1);
    finish(42);
    expect(await Promise.all([...asked, other])).toEqual([42, 42, 7]);
    expect(cache.totalOr('s', count)).toBe(42);
    expect(counts).toBe(1);
  });

  it('never shares a first count: another request asking meanwhile is told to read the version', async () => {
    const cache = new ListReadCache(100);
    let finish!: (n: number) => void;
    const first = cache.firstCount('s', () => new Promise<number>((resolve) => (finish = resolve)));
    expect(first).toBeDefined();
    // its snapshot may be older than a write the second caller saw: not joined
    expect(cache.firstCount('s', () => Promise.resolve(1))).toBeUndefined();
    expect(await cache.firstCount('other', () => Promise.resolve(7))).toBe(7);
    finish(42);
    expect(await first).toBe(42);
    expect(await cache.firstCount('s', () => Promise.resolve(43))).toBe(43);
  });

  it('shares a failure with the requests that waited, and remembers nothing of it', async () => {
    const cache = new ListReadCache(100);
    let selects = 0;
    const failing = () => {
      selects++;
      return Promise.reject(new Error('gone'));
    };
    const asked = [cache.pageOr('p', failing), cache.pageOr('p', failing)];
    for (const a of asked) await expect(a).rejects.toThrow('gone');
    expect(selects).toBe(1);
    expect(cache.page('p')).toBeUndefined();
    expect(await cache.pageOr('p', () => Promise.resolve(rows(2)))).toEqual(rows(2));
    expect(cache.page('p')).toEqual(rows(2));
  });

  it("never makes a request wait on another server's page: a replica's failure stays its own", async () => {
    const primary = new ListReadCache(100);
    const replica = primary.forAnotherServer();
    let fail!: (err: Error) => void;
    const onReplica = replica.pageOr('p', () => new Promise((_, reject) => (fail = reject)));
    // the primary asks for the same page while the replica's read runs: its own read
    const onPrimary = primary.pageOr('p', () => Promise.resolve(rows(3)));
    fail(new Error('replica gone'));
    await expect(onReplica).rejects.toThrow('replica gone');
    expect(await onPrimary).toEqual(rows(3));
    // what either remembers, both answer from
    expect(replica.page('p')).toEqual(rows(3));
    await replica.totalOr('t', () => Promise.resolve(9));
    expect(primary.total('t')).toBe(9);
  });
  it('shares nothing when off: every request runs its own query', async () => {
    const cache = new ListReadCache(0);
    let counts = 0;
    const count = () => Promise.resolve(++counts);
    expect(await Promise.all([cache.totalOr('s', count), cache.totalOr('s', count)])).toEqual([
      1, 2,
    ]);
  });

  it('keys a selection by list, version and conditions in any order', () => {
    const v1 = { id: 'l', version: 1 };
    expect(selectionKey(v1, query([byCity, byPrice]))).toBe(
      selectionKey(v1, query([byPrice, byCity])),
    );
    expect(selectionKey(v1, query([byCity]))).not.toBe(
      selectionKey({ id: 'l', version: 2 }, query([byCity])),
    );
    expect(selectionKey(v1, query([byCity]))).not.toBe(
      selectionKey(v1, query([{ ...byCity, operand: 'Rome' }])),
    );
    const s = selectionKey(v1, query([byCity]));
    expect(pageKey(s, query([byCity]), 50, 0)).not.toBe(pageKey(s, query([byCity]), 50, 50));
  });
});
