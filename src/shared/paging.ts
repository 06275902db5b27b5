/** The paging envelope, with absolute links built from BASE_URL (never from Host). */
export interface PageEnvelope<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
}

export interface PageInput<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
  /** absolute URL of the method, e.g. `${baseUrl}/api/v1/getListSchemas` */
  path: string;
}

export function lastPage(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

export function pageUrl(path: string, page: number): string {
  return `${path}?page=${page}`;
}

export function pageEnvelope<T>({
  items,
  total,
  page,
  perPage,
  path,
}: PageInput<T>): PageEnvelope<T> {
  const last = lastPage(total, perPage);
  const from = items.length > 0 ? (page - 1) * perPage + 1 : null;
  return {
    data: items,
    links: {
      first: pageUrl(path, 1),
      last: pageUrl(path, last),
      prev: page > 1 ? pageUrl(path, page - 1) : null,
      next: page < last ? pageUrl(path, page + 1) : null,
    },
    meta: {
      current_page: page,
      from,
      last_page: last,
      path,
      per_page: perPage,
      to: from === null ? null : from + items.length - 1,
      total,
    },
  };
}

/** Rows to skip for a page; pages past the end simply come back empty. */
export function pageOffset(page: number, perPage: number): number {
  return (page - 1) * perPage;
}
