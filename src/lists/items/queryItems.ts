import { domainErrors, ValidationError, type ValidationErrors } from '../../shared/errors.js';
import { pageEnvelope, pageOffset, type PageEnvelope } from '../../shared/paging.js';
import type { OrderedObject } from '../../shared/orderedJson.js';
import { compileSort, compileWhere, isFiltered } from '../filters/compile.js';
import { parseFilters } from '../filters/parseFilters.js';
import { parseOrderBy } from '../filters/parseOrderBy.js';
import type { ItemQuery } from '../filters/query.js';
import type { ItemContext } from '../context.js';
import { pageKey, selectionKey } from './readCache.js';
import { requireOwnList } from '../listAccess.js';
import { presentItem } from './presenter.js';
import { countWhere, selectPage } from './pageQueries.js';

export interface ItemQueryInput {
  schemaId: string;
  limit: number;
  page: number;
  orderBy?: unknown;
  filters?: unknown;
  contactId?: number;
  botId?: number;
  /** absolute URL of the method, for the paging links */
  path: string;
}

/** No list holds this many records: a page beyond it is empty without asking Postgres. */
const MAX_OFFSET = 1e12;

/**
 * getListItems: the page and `meta.total` run concurrently. The unfiltered total is the list's
 * counter (kept with every insert and delete); a filtered one is a count over the slots.
 */
export async function queryItems(
  ctx: ItemContext,
  input: ItemQueryInput,
): Promise<PageEnvelope<OrderedObject>> {
  const list = await requireOwnList(ctx, ctx.caller, input.schemaId);
  // the error rules: every failing parameter is listed, so filters and order_by are checked together.
  const [conditions, sort] = collectErrors(
    () => parseFilters(list.fields, input.filters),
    () => parseOrderBy(list.fields, input.orderBy),
  );
  const query: ItemQuery = {
    ownerId: list.ownerId,
    listId: list.id,
    fields: list.fields,
    conditions,
    links: { contact: input.contactId, bot: input.botId },
    sort,
  };
  const where = compileWhere(query);
  const offset = pageOffset(input.page, input.limit);
  const cache = ctx.readCache;
  const selection = selectionKey(list, query);
  const page = pageKey(selection, query, input.limit, offset);
  const [rows, total] = await Promise.all([
    offset > MAX_OFFSET
      ? []
      : (cache.page(page) ??
        selectPage(ctx.db, list.ownerId, where, compileSort(query.sort), input.limit, offset).then(
          (found) => {
            cache.rememberPage(page, found);
            return found;
          },
        )),
    !isFiltered(query)
      ? list.itemCount
      : (cache.total(selection) ??
        countWhere(ctx.db, where).then((n) => {
          cache.rememberTotal(selection, n);
          return n;
        })),
  ]);
  return pageEnvelope({
    items: rows.map((row) => presentItem(list.fields, row, ctx.cipher)),
    total,
    page: input.page,
    perPage: input.limit,
    path: input.path,
  });
}

/** Both results, or one 422 with the errors of both (the error rules: every failing parameter). */
export function collectErrors<A, B>(a: () => A, b: () => B): [A, B] {
  const found: ValidationErrors = {};
  const attempt = <T>(fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      Object.assign(found, err.errors);
      return undefined;
    }
  };
  const first = attempt(a);
  const second = attempt(b);
  if (Object.keys(found).length > 0) throw domainErrors.validation(found);
  return [first as A, second as B];
}
