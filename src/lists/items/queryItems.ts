import { domainErrors, ValidationError, type ValidationErrors } from '../../shared/domainErrors.js';
import { pageEnvelope, pageOffset, type PageEnvelope } from '../../shared/paging.js';
import type { JsonText } from '../../shared/orderedJson.js';
import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import type { ItemRow } from './foundItem.js';
import { compileSort, compileWhere, isFiltered } from '../filters/compile.js';
import { parseFilters } from '../filters/parseFilters.js';
import { parseOrderBy } from '../filters/parseOrderBy.js';
import type { ItemQuery } from '../filters/query.js';
import type { ItemContext } from '../context.js';
import {
  pageKey,
  selectionKey,
  selectionOf,
  type CachedPage,
  type ListReadCache,
} from './readCache.js';
import { requireOwnList } from '../listAccess.js';
import { itemWriter } from './listItemPresenter.js';
import { selectPage } from './pageQueries.js';
import { filterFirst, walkInOnePass } from './pageStrategy.js';
import { currentTotal, type TotalTarget } from './listTotals.js';

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

/** A record as answered: its JSON, written now or when first answered (listItemPresenter.ts). */
type PresentedItem = JsonText;

/**
 * getListItems. The unfiltered total is the list's counter (kept with every insert and
 * delete); a filtered one is remembered, advanced over the writes since, or counted over the
 * slots (listTotals.ts), and read before the page.
 */
export async function queryItems(
  ctx: ItemContext,
  input: ItemQueryInput,
): Promise<PageEnvelope<PresentedItem>> {
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
  const filtered = isFiltered(query);
  // A filtered total comes first: it says how the page is best read (pageStrategy.ts), and
  // whether there is a page to read at all. It is remembered or advanced more often than
  // counted, and where counted it is the cheaper of the two statements.
  const total = filtered
    ? await cache.totalOr(selection, () =>
        filteredTotal(cache, selectionOf(list.id, query), {
          db: ctx.db,
          ownerId: list.ownerId,
          listId: list.id,
          where,
        }),
      )
    : list.itemCount;
  const empty = offset > MAX_OFFSET || (filtered && offset >= total);
  const items = empty
    ? []
    : await pageItems(ctx, list.fields, page, () =>
        selectPage(
          ctx.db,
          {
            ownerId: list.ownerId,
            where,
            segments: compileSort(query.sort),
            filtered,
            filterFirst:
              filtered && filterFirst(query, total, list.itemCount, offset + input.limit),
            walkInOnePass:
              filtered && walkInOnePass(query, total, list.itemCount, offset, input.limit),
            total: filtered ? total : undefined,
          },
          input.limit,
          offset,
        ),
      );
  return pageEnvelope({
    items,
    total,
    page: input.page,
    perPage: input.limit,
    path: input.path,
  });
}

/**
 * A filtered total: the selection's last total brought forward over the writes since
 * (listTotals.ts), or counted; either way remembered as the newest to advance from.
 */
async function filteredTotal(
  cache: ListReadCache,
  selection: string,
  target: TotalTarget,
): Promise<number> {
  const now = await currentTotal(target, cache.latestTotal(selection));
  cache.rememberLatest(selection, now);
  return now.total;
}

/**
 * The page's records as answered: remembered, or selected, presented and remembered as
 * CachedPage says (presenting and serializing the records is most of a repeated read).
 */
async function pageItems(
  ctx: ItemContext,
  fields: readonly StoredField[],
  key: string,
  select: () => Promise<ItemRow[]>,
): Promise<PresentedItem[]> {
  const present = (rows: ItemRow[]) => rows.map(itemWriter(fields, ctx.cipher));
  if (!ctx.readCache.enabled) return present(await select());
  const sealed = fields.some((f) => f.is_encryptable);
  const page = await ctx.readCache.pageOr(key, async (): Promise<CachedPage> => {
    const rows = await select();
    // written once: the same text is remembered and answered now
    return sealed ? { rows } : { json: present(rows) };
  });
  return 'json' in page ? page.json : present(page.rows);
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
