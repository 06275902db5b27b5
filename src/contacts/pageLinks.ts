import { pageUrl } from '../shared/paging.js';

export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

/** Pages shown on each side of the current one (Laravel's `onEachSide` default). */
const ON_EACH_SIDE = 3;

export const PREVIOUS_LABEL = '&laquo; Previous';
export const NEXT_LABEL = 'Next &raquo;';

/**
 * `meta.links` of getContacts page mode (the paging envelope), as Laravel's paginator builds it:
 * "« Previous", the page numbers, "Next »". With many pages the numbers are a bounded
 * window — the first two, the three on each side of the current page, the last two,
 * with `...` between — so the array never has more than 15 entries however many pages there are.
 */
export function pageLinks(path: string, current: number, last: number): PageLink[] {
  const link = (page: number): PageLink => ({
    url: pageUrl(path, page),
    label: String(page),
    active: page === current,
  });
  const gap: PageLink = { url: null, label: '...', active: false };
  const links: PageLink[] = [
    {
      url: current > 1 ? pageUrl(path, current - 1) : null,
      label: PREVIOUS_LABEL,
      active: false,
    },
  ];
  for (const part of windowOf(current, last)) {
    if (part === 'gap') links.push(gap);
    else for (let p = part[0]; p <= part[1]; p++) links.push(link(p));
  }
  links.push({
    url: current < last ? pageUrl(path, current + 1) : null,
    label: NEXT_LABEL,
    active: false,
  });
  return links;
}

type Part = readonly [from: number, to: number] | 'gap';

/** Laravel's UrlWindow: all pages when few, else a slider with both ends. */
function windowOf(current: number, last: number): Part[] {
  if (last < ON_EACH_SIDE * 2 + 8) return [[1, last]];
  const window = ON_EACH_SIDE + 4;
  if (current <= window) return [[1, window + ON_EACH_SIDE], 'gap', [last - 1, last]];
  if (current > last - window) {
    return [[1, 2], 'gap', [last - (window + ON_EACH_SIDE - 1), last]];
  }
  return [[1, 2], 'gap', [current - ON_EACH_SIDE, current + ON_EACH_SIDE], 'gap', [last - 1, last]];
}
