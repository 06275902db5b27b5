import { describe, expect, it } from 'vitest';
import { NEXT_LABEL, pageLinks, PREVIOUS_LABEL } from '../../src/contacts/pageLinks.js';

const path = 'http://api.test/api/v1/getContacts';
const labels = (current: number, last: number) =>
  pageLinks(path, current, last).map((l) => l.label);

describe('getContacts meta.links (the paging envelope, Laravel paginator)', () => {
  it('lists every page between Previous and Next when there are fewer than 14', () => {
    expect(labels(1, 1)).toEqual([PREVIOUS_LABEL, '1', NEXT_LABEL]);
    expect(labels(5, 13)).toEqual([
      PREVIOUS_LABEL,
      ...Array.from({ length: 13 }, (_, i) => String(i + 1)),
      NEXT_LABEL,
    ]);
  });

  it('marks only the current page active and links prev / next, null at the ends', () => {
    const first = pageLinks(path, 1, 3);
    expect(first[0]).toEqual({ url: null, label: '&laquo; Previous', active: false });
    expect(first[1]).toEqual({ url: `${path}?page=1`, label: '1', active: true });
    expect(first.at(-1)).toEqual({ url: `${path}?page=2`, label: 'Next &raquo;', active: false });
    const last = pageLinks(path, 3, 3);
    expect(last[0]!.url).toBe(`${path}?page=2`);
    expect(last.at(-1)!.url).toBeNull();
    expect(last.filter((l) => l.active).map((l) => l.label)).toEqual(['3']);
  });

  it('slides a bounded window with both ends for a million pages', () => {
    expect(labels(1, 1_000_000)).toEqual([
      PREVIOUS_LABEL,
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
      '...',
      '999999',
      '1000000',
      NEXT_LABEL,
    ]);
    expect(labels(500_000, 1_000_000)).toEqual([
      PREVIOUS_LABEL,
      '1',
      '2',
      '...',
      '499997',
      '499998',
      '499999',
      '500000',
      '500001',
      '500002',
      '500003',
      '...',
      '999999',
      '1000000',
      NEXT_LABEL,
    ]);
    expect(labels(1_000_000, 1_000_000)).toEqual([
      PREVIOUS_LABEL,
      '1',
      '2',
      '...',
      ...Array.from({ length: 10 }, (_, i) => String(999_991 + i)),
      NEXT_LABEL,
    ]);
  });

  it('never has more than 15 entries and gives gaps no url', () => {
    for (const last of [1, 13, 14, 20, 1000]) {
      for (let current = 1; current <= Math.min(last + 1, 40); current++) {
        const links = pageLinks(path, current, last);
        expect(links.length).toBeLessThanOrEqual(15);
        for (const gap of links.filter((l) => l.label === '...')) {
          expect(gap).toEqual({ url: null, label: '...', active: false });
        }
      }
    }
  });

  it('carries only the page in its urls (getContacts)', () => {
    for (const link of pageLinks(path, 7, 40)) {
      if (link.url !== null)
        expect(link.url).toMatch(/^http:\/\/api\.test\/api\/v1\/getContacts\?page=\d+$/);
    }
  });
});
