import { describe, expect, it } from 'vitest';
import { hasPinnedPlan } from '../../src/lists/items/pinnedPlans.js';
import { itemQueryOn, slottedField as field } from '../helpers/itemQuery.js';

const FIELDS = [
  field('city', 'string', 't1'),
  field('amount', 'number', 'n1'),
  field('day', 'date', 'd1'),
  field('flag', 'bool'),
  field('contact', 'contact', 'contact_id'),
];

const query = (filters: Record<string, string>, links = {}) =>
  itemQueryOn(FIELDS, filters, 'amount,desc', links);

describe('which reads go under their shape’s name (one plan for any value)', () => {
  it('one condition on a slot, by equality or a range', () => {
    for (const filter of ['c1', '=,c1', '<,c1', '<=,c1', '>,c1', '>=,c1']) {
      expect(hasPinnedPlan(query({ city: filter })), filter).toBe(true);
    }
    expect(hasPinnedPlan(query({ amount: '<,10' }))).toBe(true);
    expect(hasPinnedPlan(query({ day: '2024-05-01' }))).toBe(true);
    expect(hasPinnedPlan(query({ contact: '7' }))).toBe(true);
  });

  it('not where the value can decide the plan, nor without a slot', () => {
    // a pattern's prefix is an index range only when Postgres sees it; != matches most records
    expect(hasPinnedPlan(query({ city: 'like,c%' }))).toBe(false);
    expect(hasPinnedPlan(query({ city: 'not like,c%' }))).toBe(false);
    expect(hasPinnedPlan(query({ city: '!=,c1' }))).toBe(false);
    // two conditions: which index serves the count depends on both values
    expect(hasPinnedPlan(query({ city: 'c1', amount: '<,10' }))).toBe(false);
    expect(hasPinnedPlan(query({ city: 'c1' }, { contact: 7 }))).toBe(false);
    // a field kept only in the JSONB document
    expect(hasPinnedPlan(query({ flag: 'true' }))).toBe(false);
    expect(hasPinnedPlan(query({}))).toBe(false);
  });
});
