import { describe, expect, it } from 'vitest';
import { lastPage, pageEnvelope, pageOffset } from '../../src/shared/paging.js';

const path = 'http://api.test/api/v1/getListSchemas';
const items = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('paging envelope (the paging envelope)', () => {
  it('describes an empty result as one empty page with null ends', () => {
    expect(pageEnvelope({ items: [], total: 0, page: 1, perPage: 50, path })).toEqual({
      data: [],
      links: { first: `${path}?page=1`, last: `${path}?page=1`, prev: null, next: null },
      meta: {
        current_page: 1,
        from: null,
        last_page: 1,
        path,
        per_page: 50,
        to: null,
        total: 0,
      },
    });
  });

  it('links a middle page both ways with absolute URLs', () => {
    const env = pageEnvelope({ items: items(50), total: 120, page: 2, perPage: 50, path });
    expect(env.links).toEqual({
      first: `${path}?page=1`,
      last: `${path}?page=3`,
      prev: `${path}?page=1`,
      next: `${path}?page=3`,
    });
    expect(env.meta).toMatchObject({ current_page: 2, from: 51, to: 100, last_page: 3 });
  });

  it('ends the last partial page with next = null', () => {
    const env = pageEnvelope({ items: items(20), total: 120, page: 3, perPage: 50, path });
    expect(env.links.next).toBeNull();
    expect(env.meta).toMatchObject({ from: 101, to: 120, total: 120 });
  });

  it('answers a page past the end with no items, still linking back', () => {
    const env = pageEnvelope({ items: [], total: 120, page: 9, perPage: 50, path });
    expect(env.meta).toMatchObject({ current_page: 9, from: null, to: null, last_page: 3 });
    expect(env.links.prev).toBe(`${path}?page=8`);
    expect(env.links.next).toBeNull();
  });

  it('computes the last page and the rows to skip', () => {
    expect([lastPage(0, 50), lastPage(50, 50), lastPage(51, 50)]).toEqual([1, 1, 2]);
    expect([pageOffset(1, 50), pageOffset(3, 50)]).toEqual([0, 100]);
  });
});
