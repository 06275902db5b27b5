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
