import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { makeList } from '../helpers/lists.js';
import { listItemStatements } from '../helpers/sentStatements.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { evaluate, type RefField, type RefQuery, type RefRecord } from '../property/reference.js';

/**
 * A first-time read of a condition shape whose last count was small brings its page in the
 * count's statement (src/lists/items/countedPage.ts). Every answer is checked against the
 * in-memory reference, and the statements sent tell which way the read went: the page with
 * the count, the count found past the cap (counted again, then the usual page), or the usual
 * two statements.
 */
const sent = listItemStatements();
const withPage = (text: string) => text.startsWith('with m as materialized');

const FIELDS: RefField[] = [
  { slug: 'city', type: 'string', encrypted: false },
  { slug: 'rank', type: 'number', encrypted: false },
  { slug: 'day', type: 'date', encrypted: false },
  { slug: 'tag', type: 'string', encrypted: false },
];

let t: TestApp;
let owner: Tenant;
let listId: string;
const stored: RefRecord[] = [];
const tick = Date.parse('2024-01-01T00:00:00Z');

beforeAll(async () => {
  // three records share each created_at, so the id tie-breaker is part of every order
  let calls = 0;
  t = await startTestApp({
    clock: () => new Date(tick + Math.floor(calls++ / 3)),
    env: { RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  owner = await makeTenant(t.db);
  listId = (await makeList(t.db, owner, FIELDS)).id;
  for (let i = 0; i < 160; i++) {
    // 'common' matches 96 records, 'rare', r1 and r3 16 (r3: three without a rank), r0 and r2 8
    const city = i % 10 < 6 ? 'common' : i % 10 === 6 ? 'rare' : `r${i % 4}`;
    const data = {
      city,
      ...(i % 7 === 0 ? {} : { rank: (i * 37) % 101 }),
      day: `2024-02-${String(1 + (i % 28)).padStart(2, '0')}`,
      // half the records 'even', the others a tag of their own
      tag: i % 2 === 0 ? 'even' : `t${i}`,
    };
    const res = await call(
      t.app,
      'addListItem',
      { schema_id: listId, data },
      { key: owner.apiKey },
    );
    expect(res.status).toBe(201);
    stored.push(res.body.data);
  }
}, 60_000);
afterAll(() => t.close());

/** getListItems as answered, checked against the reference, with the list_items statements it sent. */
async function read(query: RefQuery) {
  sent.length = 0;
  const res = await call(
    t.app,
    'getListItems',
    { schema_id: listId, ...query },
    { key: owner.apiKey },
  );
  expect(res.status).toBe(200);
  const answer = {
    ids: res.body.data.map((r: { id: string }) => r.id),
    total: res.body.meta.total,
  };
  const expected = evaluate(FIELDS, stored, query);
  expect(expected.status).toBe(200);
  if (expected.status === 200) expect(answer).toEqual({ ids: expected.ids, total: expected.total });
  return { answer, statements: [...sent] };
}

describe('a first-time read with its page in the count', () => {
  it('reads the count and a whole page in one statement once the shape counted few', async () => {
    // the first read of the shape has no last count: count, then page
    const first = await read({ filters: { city: 'r0' }, order_by: 'rank,desc', limit: 5, page: 1 });
    expect(first.statements.some(withPage)).toBe(false);
    expect(first.statements).toHaveLength(2);
    for (const page of [1, 2]) {
      const { answer, statements } = await read({
        filters: { city: page === 1 ? 'rare' : 'r1' },
        order_by: 'rank,desc',
        limit: 5,
        page,
      });
      expect(answer.ids).toHaveLength(5);
      expect(statements).toHaveLength(1);
      expect(withPage(statements[0]!)).toBe(true);
    }
  });

  it('orders by created_at too, and counts a range first whatever its last count', async () => {
    await read({ filters: { day: '2024-02-01' }, limit: 3, page: 1 });
    const inserted = await read({ filters: { day: '2024-02-03' }, limit: 3, page: 2 });
    expect(inserted.answer.ids).toHaveLength(3);
    expect(inserted.statements).toHaveLength(1);
    expect(withPage(inserted.statements[0]!)).toBe(true);
    await read({ filters: { rank: '<,3' }, order_by: 'day,asc', limit: 4, page: 1 });
    const ranged = await read({ filters: { rank: '<,6' }, order_by: 'day,asc', limit: 4, page: 2 });
    expect(ranged.statements).toHaveLength(2);
    expect(ranged.statements.some(withPage)).toBe(false);
  });

  it('reads combined conditions and their page in one statement, unless one is on the sort', async () => {
    const shape = (city: string, below: number, page: number) =>
      read({ filters: { city, rank: `<,${below}` }, order_by: 'day,asc', limit: 3, page });
    const first = await shape('rare', 50, 1);
    expect(first.statements).toHaveLength(2);
    expect(first.statements.some(withPage)).toBe(false);
    for (const [city, below, page] of [
      ['r1', 60, 1],
      ['common', 9, 2],
    ] as const) {
      const { answer, statements } = await shape(city, below, page);
      expect(answer.ids).toHaveLength(3);
      expect(statements).toHaveLength(1);
      expect(withPage(statements[0]!)).toBe(true);
    }
    // sorted by a filtered column the walk starts at the bound: never filtered first
    const sorted = await read({
      filters: { city: 'r0', rank: '<,70' },
      order_by: 'rank,desc',
      limit: 3,
      page: 1,
    });
    expect(sorted.statements).toHaveLength(2);
    expect(sorted.statements.some(withPage)).toBe(false);
  });

  it('goes on into records without a value when the page passes the last one with a value', async () => {
    await read({ filters: { city: 'r2' }, order_by: 'rank,asc', limit: 5, page: 1 });
    // 'r3' has 13 ranked records and 3 without: page 4 of 4 holds the last ranked one and them
    const { answer, statements } = await read({
      filters: { city: 'r3' },
      order_by: 'rank,asc',
      limit: 4,
      page: 4,
    });
    expect(answer.ids).toHaveLength(4);
    expect(withPage(statements[0]!)).toBe(true);
    expect(statements.length).toBeGreaterThan(1);
  });

  it('counts again past the cap, and never brings a page for a shape that counted many', async () => {
    // a page of one: the most matches read by filtering first is √(1 × 160 × 16) = 50
    await read({ filters: { tag: 't1' }, order_by: 'rank,desc', limit: 1, page: 1 });
    // the last count was small, this one is past the cap: counted on its own, the page walked
    const past = await read({ filters: { tag: 'even' }, order_by: 'rank,desc', limit: 1, page: 1 });
    expect(past.answer.total).toBe(80);
    expect(withPage(past.statements[0]!)).toBe(true);
    expect(past.statements.slice(1).some(withPage)).toBe(false);
    expect(past.statements.length).toBe(3);
    // now the shape's last count is past the cap: the next value is counted first
    const next = await read({ filters: { tag: 't3' }, order_by: 'rank,desc', limit: 1, page: 1 });
    expect(next.answer.total).toBe(1);
    expect(next.statements.some(withPage)).toBe(false);
    expect(next.statements).toHaveLength(2);
  });
});
