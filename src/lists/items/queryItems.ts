import type { SQL } from 'drizzle-orm';
import { pageEnvelope, pageOffset, type PageEnvelope } from '../../shared/paging.js';
import { JsonText } from '../../shared/orderedJson.js';
import type { PageRow } from './foundItem.js';
import { compileSort, compileWalkWhere, compileWhere } from '../filters/compile.js';
import type { ItemContext } from '../context.js';
import { pageKey, selectionKey, type CachedPage } from './readCache.js';
import { itemWriter } from './listItemPresenter.js';
import { listRead, rememberedListRead, type ListRead } from './listRead.js';
import { isNamed } from './listTotals.js';
import { selectPage } from './pageQueries.js';
import {
  filterFirst,
  matchedByOf,
  matchesInOnePass,
  walkInOnePass,
  walksAnyValue,
} from './pageStrategy.js';
import { noteUnstoredRecords, recordJson } from './recordJson.js';

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
 * getListItems: the list and the total (listRead.ts), then the page. A filtered total comes
 * first: it says how the page is best read (pageStrategy.ts), and whether there is a page to
 * read at all.
 */
export async function queryItems(
  ctx: ItemContext,
  input: ItemQueryInput,
): Promise<PageEnvelope<PresentedItem>> {
  const offset = pageOffset(input.page, input.limit);
  const read =
    (await rememberedListRead(ctx, input.schemaId, input, { limit: input.limit, offset })) ??
    (await listRead(ctx, input.schemaId, input));
  const { list, query, filtered, total } = read;
  // a selection's pages stay those of an earlier version where no write since touched it
  const pages = ctx.readCache.pagesKey(selectionKey(list, query));
  const page = pageKey(pages, query, input.limit, offset);
  const empty = offset > MAX_OFFSET || (filtered && offset >= total);
  const byFilter = filtered && filterFirst(query, total, list.itemCount, offset + input.limit);
  const counted = byFilter ? countedRows(read, input.limit, offset) : undefined;
  const walkNamed = !byFilter && isNamed(read) && walksAnyValue(query, list.itemCount);
  const items = empty
    ? []
    : await pageItems(ctx, list, page, async () =>
        counted
          ? counted
          : selectPage(
              ctx.db,
              {
                ownerId: list.ownerId,
                listId: list.id,
                records: read.records,
                where: pageWhere(read, byFilter, walkNamed),
                segments: compileSort(query.sort),
                filtered,
                filterFirst: byFilter,
                walkInOnePass:
                  filtered && walkInOnePass(query, total, list.itemCount, offset, input.limit),
                matchesInOnePass: byFilter && matchesInOnePass(total, input.limit),
                named: byFilter ? isNamed(read) : walkNamed,
                matchedBy: byFilter ? matchedByOf(query) : undefined,
                total: filtered ? total : undefined,
                record: recordJson(list),
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
 * The page's WHERE. A named shape's (listRead.ts, readTarget) is written for a plan kept for
 * any value; a page filtered first keeps it. A walk kept under its list's name is written so
 * that its plan walks the sort's index (compileWalkWhere); any other walk is planned for its
 * list and its values, the range bound alone hidden.
 */
function pageWhere(read: ListRead, byFilter: boolean, walkNamed: boolean): SQL {
  if (byFilter || !isNamed(read)) return read.where;
  return walkNamed ? compileWalkWhere(read.query) : compileWhere(read.query, 'bounds');
}

/**
 * The page the total's statement brought (countedPage.ts), where it is this request's page
 * and whole: it holds the sort's first segment, so a page that ends before the total and
 * before its limit goes on into records without a value, which selectPage reads.
 */
function countedRows(read: ListRead, limit: number, offset: number): PageRow[] | undefined {
  const counted = read.page;
  if (!counted || counted.limit !== limit || counted.offset !== offset) return undefined;
  const whole = counted.rows.length === limit || offset + counted.rows.length >= read.total;
  return whole ? counted.rows : undefined;
}

/**
 * The page's records as answered: remembered, or selected, presented and remembered as
 * CachedPage says (presenting and serializing the records is most of a repeated read).
 */
async function pageItems(
  ctx: ItemContext,
  list: ListRead['list'],
  key: string,
  selectRows: () => Promise<PageRow[]>,
): Promise<PresentedItem[]> {
  const { fields } = list;
  const select = async () => {
    const rows = await selectRows();
    noteUnstoredRecords(list, rows);
    return rows;
  };
  const present = (rows: PageRow[], remembered = false) => {
    const write = itemWriter(fields, ctx.cipher, remembered);
    return rows.map((row) => ('json' in row ? new JsonText(row.json) : write(row)));
  };
  if (!ctx.readCache.enabled) return present(await select());
  const sealed = fields.some((f) => f.is_encryptable);
  const page = await ctx.readCache.pageOr(key, async (): Promise<CachedPage> => {
    const rows = await select();
    // written once: the same text is remembered and answered now
    return sealed ? { rows } : { json: present(rows, true) };
  });
  return 'json' in page ? page.json : present(page.rows);
}
