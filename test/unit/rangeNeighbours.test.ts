import { describe, expect, it } from 'vitest';
import type { ItemQuery } from '../../src/lists/filters/query.js';
import type { SnapshotTotal } from '../../src/lists/items/listTotals.js';
import { RangeNeighbours } from '../../src/lists/items/rangeNeighbours.js';
import { selectionOf } from '../../src/lists/items/readCache.js';
import { itemQueryOn, slottedField } from '../helpers/itemQuery.js';

const fields = [
  slottedField('city', 'string', 't1'),
  slottedField('price', 'number', 'n1'),
  slottedField('note', 'number'),
];
const query = (filters: Record<string, string>) => itemQueryOn(fields, filters, 'created_at');
const priced = (filter: string) => query({ price: filter });

const total = (n: number): SnapshotTotal => ({ total: n, version: 1, layout: 0, snapshot: '1:1:' });

/** A neighbour index whose every remembered selection has a total. */
function remembering(...queries: ItemQuery[]) {
  const index = new RangeNeighbours(1000, (q) => selectionOf(q.listId, q));
  const totals = new Map<string, SnapshotTotal>();
  for (const [i, q] of queries.entries()) {
    const selection = selectionOf(q.listId, q);
    totals.set(selection, total(i));
    index.remember(q, selection);
  }
  return { index, latest: (s: string) => totals.get(s), totals };
}

const boundOf = (q: ItemQuery | undefined) =>
  q?.conditions.find((c) => c.field.slug === 'price')?.operand;

describe('RangeNeighbours', () => {
  it('picks the nearest bound on the inner side of each range operator', () => {
    const { index, latest } = remembering(priced('<,10'), priced('<,30'), priced('<,50'));
    expect(boundOf(index.nearest(priced('<,40'), latest)?.query)).toBe('30');
    expect(index.nearest(priced('<,5'), latest)).toBeUndefined();
    // another operator is another family
    expect(index.nearest(priced('<=,40'), latest)).toBeUndefined();
    const lower = remembering(priced('>,10'), priced('>,30'));
    expect(boundOf(lower.index.nearest(priced('>,20'), lower.latest)?.query)).toBe('30');
    expect(lower.index.nearest(priced('>,40'), lower.latest)).toBeUndefined();
  });

  it('builds the bands from the complement of the neighbour’s and the query’s bounds', () => {
    const { index, latest } = remembering(query({ city: 'Oslo', price: '<=,10' }));
    const n = index.nearest(query({ price: '<=,20', city: 'Oslo' }), latest)!;
    expect(n.from.total).toBe(0);
    expect(n.plus.conditions.map((c) => [c.op, c.operand])).toEqual([
      ['<=', '20'],
      ['=', 'Oslo'],
      ['>', '10'],
    ]);
    expect(n.minus.conditions.map((c) => [c.op, c.operand])).toEqual([
      ['<=', '10'],
      ['=', 'Oslo'],
      ['>', '20'],
    ]);
  });

  it('needs every other condition to be the same', () => {
    const { index, latest } = remembering(query({ city: 'Oslo', price: '<,10' }));
    expect(index.nearest(query({ city: 'Bergen', price: '<,20' }), latest)).toBeUndefined();
    expect(index.nearest(priced('<,20'), latest)).toBeUndefined();
  });

  it('skips bounds whose totals are gone, and fields without a slot', () => {
    const { index, latest, totals } = remembering(priced('<,10'), priced('<,15'));
    totals.delete(selectionOf('l', priced('<,15')));
    expect(boundOf(index.nearest(priced('<,20'), latest)?.query)).toBe('10');
    const other = remembering(query({ note: '<,10' }));
    expect(other.index.nearest(query({ note: '<,20' }), other.latest)).toBeUndefined();
  });

  it('keeps at most its limit of bounds over all families, forgetting the stalest first', () => {
    const index = new RangeNeighbours(10, (q) => selectionOf(q.listId, q));
    const totals = new Map<string, SnapshotTotal>();
    const latest = (sel: string) => totals.get(sel);
    for (const city of ['a', 'b', 'c'])
      for (let i = 0; i < 5; i++) {
        const q = query({ city, price: `<,${i}` });
        totals.set(selectionOf('l', q), total(i));
        index.remember(q, selectionOf('l', q));
      }
    expect(index.size).toBe(10);
    // city a's five went first, then none of b's or c's
    expect(index.nearest(query({ city: 'a', price: '<,9' }), latest)).toBeUndefined();
    expect(boundOf(index.nearest(query({ city: 'b', price: '<,0.5' }), latest)?.query)).toBe('0');
    expect(boundOf(index.nearest(query({ city: 'c', price: '<,9' }), latest)?.query)).toBe('4');
  });

  it('takes no neighbour whose total is below its least', () => {
    const index = new RangeNeighbours(1000, (q) => selectionOf(q.listId, q), 30);
    const totals = new Map([
      [selectionOf('l', priced('<,10')), total(40)],
      [selectionOf('l', priced('<,20')), total(29)],
    ]);
    for (const q of [priced('<,10'), priced('<,20')]) index.remember(q, selectionOf('l', q));
    // the nearest (20) matched too few: the next one below is taken
    expect(boundOf(index.nearest(priced('<,25'), (s) => totals.get(s))?.query)).toBe('10');
    expect(index.nearest(priced('<,5'), (s) => totals.get(s))).toBeUndefined();
  });

  it('keeps at most 256 bounds a family, forgetting the oldest', () => {
    const queries = Array.from({ length: 300 }, (_, i) => priced(`<,${i}`));
    const { index, latest } = remembering(...queries);
    expect(boundOf(index.nearest(priced('<,299.5'), latest)?.query)).toBe('299');
    // 0…43 are forgotten: the nearest left below 43.5 is none
    expect(index.nearest(priced('<,43.5'), latest)).toBeUndefined();
    expect(boundOf(index.nearest(priced('<,44.5'), latest)?.query)).toBe('44');
  });
});
