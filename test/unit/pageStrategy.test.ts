import { describe, expect, it } from 'vitest';
import {
  filterFirst,
  filterFirstLimit,
  walkInOnePass,
  walksAnyValue,
  WALK_KEPT_MIN_RECORDS,
} from '../../src/lists/items/pageStrategy.js';
import { itemQueryOn, slottedField as field } from '../helpers/itemQuery.js';

const FIELDS = [
  field('city', 'string', 't1'),
  field('segment', 'string', 't2'),
  field('amount', 'number', 'n1'),
  field('rank', 'number', 'n2'),
  field('day', 'date', 'd1'),
  field('flag', 'bool'),
  field('contact', 'contact', 'contact_id'),
];

const query = (filters: Record<string, string>, orderBy: string, links = {}) =>
  itemQueryOn(FIELDS, filters, orderBy, links);

const MILLION = 1_000_000;

describe('how a filtered page is read (page strategy)', () => {
  it('filters first where walking the sort would visit the heap for thousands of entries', () => {
    // a second string field's slot is in no order index: each walked entry is a heap visit
    const q = query({ segment: 's1' }, 'rank,desc');
    expect(filterFirst(q, 1_000, MILLION, 50)).toBe(true); // 0.1 %
    expect(filterFirst(q, 10_000, MILLION, 50)).toBe(true); // 1 %
    expect(filterFirst(q, 50_000, MILLION, 50)).toBe(false); // 5 %: 1,000 entries walked
    expect(filterFirst(q, 500_000, MILLION, 50)).toBe(false);
  });

  it('walks longer when the sort index includes every filtered column', () => {
    const covered = query({ day: '<,2024-01-01' }, 'amount,desc');
    expect(filterFirst(covered, 1_000, MILLION, 50)).toBe(true);
    expect(filterFirst(covered, 10_000, MILLION, 50)).toBe(false);
    const twoRanges = query({ day: '<,2024-01-01', amount: '<,10' }, 'rank,desc');
    expect(filterFirst(twoRanges, 5_000, MILLION, 50)).toBe(true);
    expect(filterFirst(twoRanges, 100_000, MILLION, 50)).toBe(false);
    // the first string field's slot (t1) is in every number and date index (migration 0017)
    const firstString = query({ city: 'c1', day: '<,2024-01-01' }, 'rank,desc');
    expect(filterFirst(firstString, 5_000, MILLION, 50)).toBe(true);
    expect(filterFirst(firstString, 10_000, MILLION, 50)).toBe(false);
  });

  it('deeper pages walk further, so they filter first at larger totals', () => {
    const q = query({ segment: 's1' }, 'rank,desc');
    expect(filterFirst(q, 50_000, MILLION, 50)).toBe(false);
    expect(filterFirst(q, 50_000, MILLION, 500)).toBe(true);
  });

  it('leaves the plan to Postgres where the filter bounds the walk or no index sorts', () => {
    // a condition on the sort column: the walk starts at the bound and reads just the page
    expect(filterFirst(query({ amount: '<,10' }, 'amount,asc'), 10, MILLION, 50)).toBe(false);
    // a field kept in JSONB: no index serves the order, Postgres sorts anyway
    expect(filterFirst(query({ city: 'c1' }, 'flag,asc'), 10, MILLION, 50)).toBe(false);
  });

  it('counts a JSONB-only filter and a link as uncovered', () => {
    expect(filterFirst(query({ flag: 'true' }, 'amount,desc'), 10_000, MILLION, 50)).toBe(true);
    const linked = query({}, 'created_at,asc', { contact: 7 });
    // the contact column is included in the created_at index: covered
    expect(filterFirst(linked, 10_000, MILLION, 50)).toBe(false);
    expect(filterFirst(query({}, 'updated_at,asc', { contact: 7 }), 10_000, MILLION, 50)).toBe(
      true,
    );
  });
});

describe('a walked page read in one pass (page strategy)', () => {
  const q = query({ amount: '<,100000' }, 'day,asc');

  it('reads the rows as it walks while the walk passes fewer than 500 other entries', () => {
    // page 1 of 50: 10 % passes 450 entries, 50 % passes 50
    expect(walkInOnePass(q, 100_000, MILLION, 0, 50)).toBe(true);
    expect(walkInOnePass(q, 500_000, MILLION, 0, 50)).toBe(true);
    // 5 % passes 950, 1 % 4,950: the deferred join tests those from the index
    expect(walkInOnePass(q, 50_000, MILLION, 0, 50)).toBe(false);
    expect(walkInOnePass(q, 10_000, MILLION, 0, 50)).toBe(false);
    // a deeper page at 10 %: page 2 passes 950
    expect(walkInOnePass(q, 100_000, MILLION, 50, 50)).toBe(false);
  });

  it('counts only the offset where the condition is on the sort column itself', () => {
    const bounded = query({ amount: '<,10' }, 'amount,asc');
    expect(walkInOnePass(bounded, 10, MILLION, 400, 50)).toBe(true);
    expect(walkInOnePass(bounded, 10, MILLION, 500, 50)).toBe(false);
  });

  it('never where no index serves the sort', () => {
    expect(walkInOnePass(query({ city: 'c1' }, 'flag,asc'), 500_000, MILLION, 0, 50)).toBe(false);
  });

  it('names the most matches read by filtering first: the cap of a page read with its count', () => {
    const shapes = [
      query({ segment: 's1' }, 'rank,desc'),
      query({ day: '<,2024-01-01' }, 'amount,desc'),
      query({ city: 'c1', day: '<,2024-01-01' }, 'created_at,asc'),
    ];
    for (const q of shapes)
      for (const records of [0, 1, 7, 160, 10_000, MILLION, 4 * MILLION])
        for (const end of [1, 50, 1_050, 100_000]) {
          const limit = filterFirstLimit(q, records, end);
          expect(filterFirst(q, limit, records, end)).toBe(true);
          expect(filterFirst(q, limit + 1, records, end)).toBe(false);
        }
    // 50 × 1,000,000 walked entries, each a heap visit (16): √(8 × 10⁸)
    expect(filterFirstLimit(shapes[0]!, MILLION, 50)).toBe(28_284);
    // never by filtering first: a condition on the sort's own column, or no index for the sort
    expect(filterFirstLimit(query({ rank: '>,1' }, 'rank,desc'), MILLION, 50)).toBe(-1);
    expect(filterFirstLimit(query({ city: 'c1' }, 'flag,asc'), MILLION, 50)).toBe(-1);
  });
});

describe("a walked page kept under its list's name (page strategy)", () => {
  it('keeps the walk of a large list sorted by a column no condition is on', () => {
    expect(walksAnyValue(query({ city: 'c1' }, 'day,asc'), MILLION)).toBe(true);
    expect(walksAnyValue(query({ amount: '<,10' }, 'created_at,desc'), MILLION)).toBe(true);
  });

  it('leaves a small list, a bound on the sort column and an order no index serves unnamed', () => {
    const q = query({ city: 'c1' }, 'day,asc');
    expect(walksAnyValue(q, WALK_KEPT_MIN_RECORDS)).toBe(true);
    expect(walksAnyValue(q, WALK_KEPT_MIN_RECORDS - 1)).toBe(false);
    // the bound starts the walk: the plan must see it
    expect(walksAnyValue(query({ amount: '<,10' }, 'amount,asc'), MILLION)).toBe(false);
    // a field kept in JSONB: Postgres sorts anyway
    expect(walksAnyValue(query({ city: 'c1' }, 'flag,asc'), MILLION)).toBe(false);
  });
});
