import type { SQL } from 'drizzle-orm';
import type { ListSchemaRow } from '../../infra/db/schema/listSchemas.js';
import { domainErrors, ValidationError, type ValidationErrors } from '../../shared/domainErrors.js';
import type { ItemContext } from '../context.js';
import { onCitus } from '../../infra/db/engine.js';
import { compileSort, compileWhere, isFiltered, type Hiding } from '../filters/compile.js';
import { parseFilters } from '../filters/parseFilters.js';
import { parseOrderBy } from '../filters/parseOrderBy.js';
import type { ItemQuery } from '../filters/query.js';
import { requireOwnList } from '../listAccess.js';
import { recordJson } from './recordJson.js';
import {
  countWithPage,
  sharedScanColumn,
  type CountedPage,
  type CountedRows,
  type PageAt,
} from './countedPage.js';
import {
  advanceTotal,
  countTotal,
  type AdvancedTotal,
  type CountedTotal,
  type SnapshotTotal,
  type TotalTarget,
} from './listTotals.js';
import { filterFirstLimit } from './pageStrategy.js';
import { shapeKey } from './shapeTotals.js';
import { hasPinnedPlan } from './pinnedPlans.js';
import { listRecords, type ListRecords } from './listRecords.js';
import { neighbourSql } from './rangeNeighbours.js';
import { selectionKey, selectionOf, type ListReadCache } from './readCache.js';

/** What getListItems reads a page with: the list, the parsed query and the total. */
export interface ListRead {
  list: Pick<ListSchemaRow, 'id' | 'ownerId' | 'fields' | 'layout' | 'itemCount' | 'version'>;
  query: ItemQuery;
  /** the WHERE of the count and a filter-first page, its values hidden as `hiding` says */
  where: SQL;
  hiding: Hiding;
  /** the table the list's records are read from (listRecords.ts) */
  records: ListRecords;
  filtered: boolean;
  /** the list's counter unfiltered; filtered, remembered, advanced or counted (listTotals.ts) */
  total: number;
  /** a page read with the total (countedPage.ts): queryItems answers it where it fits */
  page?: CountedRows;
}

/** The filters, order and links of a request, as getListItems reads them. */
export interface QueryParams {
  filters?: unknown;
  orderBy?: unknown;
  contactId?: number;
  botId?: number;
}

/**
 * The list, then its total: the unfiltered total is the list's counter (kept with every
 * insert and delete); a filtered one is remembered, advanced over the writes since, or
 * counted. The list is remembered for the next read (rememberedListRead).
 */
export async function listRead(
  ctx: ItemContext,
  schemaId: string,
  params: QueryParams,
): Promise<ListRead> {
  const list = await requireOwnList(ctx, ctx.caller, schemaId);
  ctx.recentLists.remember(list, ctx.clock().getTime());
  const query = itemQuery(list, params);
  const target = await readTarget(ctx, list, query);
  const filtered = isFiltered(query);
  const cache = ctx.readCache;
  const total = filtered
    ? await cache.totalOr(selectionKey(list, query), () =>
        filteredTotal(ctx, list, query, selectionOf(list.id, query), target),
      )
    : list.itemCount;
  const { where, hiding, records } = target;
  return { list, query, where, hiding, records, filtered, total };
}

/**
 * A filtered read this instance has no total of (a filter never sent before, as a bot's
 * lookup of one user is), on a list read lately (recentLists.ts): the count and the list's
 * row in one statement, instead of reading the list first. The list remembered gives the
 * fields to compile the filter; the count's statement reads the list's layout in its
 * snapshot, and the read stands only where the list is live and its fields unchanged.
 * Otherwise (and for a filter the remembered fields refuse) undefined: listRead decides
 * again on a fresh read, so no answer rests on a remembered list alone.
 */
export async function rememberedListRead(
  ctx: ItemContext,
  schemaId: string,
  params: QueryParams,
  pageAt?: PageAt,
): Promise<ListRead | undefined> {
  const list = ctx.recentLists.get(schemaId, ctx.clock().getTime());
  // another account's list: the fresh read answers its 403
  if (!list || list.ownerId !== ctx.caller.accountId) return undefined;
  let query: ItemQuery;
  try {
    query = itemQuery(list, params);
  } catch {
    // perhaps only against the remembered fields: the fresh read refuses it, or not
    return undefined;
  }
  const selection = selectionOf(list.id, query);
  const cache = ctx.readCache;
  if (!isFiltered(query) || cache.latestTotal(selection) !== undefined) return undefined;
  const target = await readTarget(ctx, list, query);
  const { where, hiding, records } = target;
  const counting = cache.firstCount(selection, () =>
    countFirstTime(ctx, list, query, target, pageAt),
  );
  // another request counts it now: a fresh read of the list's version, then its count
  if (!counting) return undefined;
  const counted = await counting;
  if (counted.itemCount === undefined || counted.layout !== list.layout) {
    ctx.recentLists.forget(list.id);
    return undefined;
  }
  const now = { ...list, version: counted.version, itemCount: counted.itemCount };
  cache.rememberLatest(query, selection, counted);
  cache.rememberTotal(selectionKey(now, query), counted.total);
  return {
    list: now,
    query,
    where,
    hiding,
    records,
    filtered: true,
    total: counted.total,
    ...(counted.page ? { page: counted.page } : {}),
  };
}

/**
 * A first-time total: from the list's kept counts (band or value) or a neighbour's total where they answer,
 * else counted, with its page in the same statement where one scan serves both and the last
 * total of the shape says the matches are few enough to read the page by filtering first
 * (countedPage.ts). It becomes the shape's last total.
 */
async function countFirstTime(
  ctx: ItemContext,
  list: ListSchemaRow,
  query: ItemQuery,
  target: ReadTarget,
  pageAt: PageAt | undefined,
): Promise<CountedPage> {
  const counted =
    (await keptTotal(ctx, list, query, target)) ??
    (await neighbourTotal(ctx.readCache, query, target)) ??
    (await countMaybeWithPage(ctx, list, query, target, pageAt));
  return rememberShape(ctx, target, counted);
}

/** A count, with the page where one scan serves both and the shape's last total is small. */
async function countMaybeWithPage(
  ctx: ItemContext,
  list: Pick<ListSchemaRow, 'id' | 'fields' | 'layout'>,
  query: ItemQuery,
  target: ReadTarget,
  pageAt: PageAt | undefined,
): Promise<CountedPage> {
  const column = sharedScanColumn(query);
  const last = ctx.shapeTotals.get(target.shape);
  if (column === undefined || !pageAt || !last) return countTotal(target);
  // the cap as the last count's list size set it: the remembered list may predate its records
  const cap = filterFirstLimit(query, last.records, pageAt.offset + pageAt.limit);
  if (last.total > cap) return countTotal(target);
  return countWithPage(target, {
    ...pageAt,
    column,
    cap,
    segment: compileSort(query.sort)[0]!,
    record: recordJson(list),
  });
}

/**
 * Keeps a total as its shape's last (shapeTotals.ts), which decides how the next value of the
 * shape is counted: with its page or not, from the band counts or not.
 */
function rememberShape<T extends CountedTotal>(
  ctx: ItemContext,
  target: Pick<ReadTarget, 'shape'>,
  counted: T,
): T {
  if (counted.itemCount !== undefined)
    ctx.shapeTotals.set(target.shape, { total: counted.total, records: counted.itemCount });
  return counted;
}

/**
 * A request's query on the list's fields (getListItems, the lists export); one 422 for the
 * filters and order_by both.
 */
export function itemQuery(list: ListSchemaRow, params: QueryParams): ItemQuery {
  // the error rules: every failing parameter is listed, so filters and order_by are checked together.
  const [conditions, sort] = collectErrors(
    () => parseFilters(list.fields, params.filters),
    () => parseOrderBy(list.fields, params.orderBy),
  );
  return {
    ownerId: list.ownerId,
    listId: list.id,
    fields: list.fields,
    conditions,
    links: { contact: params.contactId, bot: params.botId },
    sort,
  };
}

/**
 * A filtered total: the selection's last total brought forward over the writes since
 * (listTotals.ts), else a neighbour's, else counted; remembered as the newest to advance from.
 */
async function filteredTotal(
  ctx: ItemContext,
  list: Pick<ListSchemaRow, 'id' | 'itemCount'>,
  query: ItemQuery,
  selection: string,
  target: ReadTarget,
): Promise<number> {
  const cache = ctx.readCache;
  const latest = cache.latestTotal(selection);
  const advanced = latest && latest.version >= 0 ? await advanceTotal(target, latest) : undefined;
  if (latest && advanced) carryPages(cache, list.id, query, latest, advanced);
  const now: CountedTotal | AdvancedTotal =
    advanced ??
    (await keptTotal(ctx, list, query, target)) ??
    (await neighbourTotal(cache, query, target)) ??
    (await countTotal(target));
  cache.rememberLatest(query, selection, rememberShape(ctx, target, now));
  return now.total;
}

/**
 * Pages carried across writes: where no write since the total `from` touched a record of the
 * selection (it matched neither before nor after), the pages of `from`'s version are the
 * pages now, and a read answers them without reading them again — a list written all the
 * time keeps its pages as long as the writes land elsewhere (docs/records.md, "Pages between
 * writes").
 */
function carryPages(
  cache: ListReadCache,
  listId: string,
  query: ItemQuery,
  from: SnapshotTotal,
  advanced: AdvancedTotal,
): void {
  if (advanced.touched) return;
  const key = (version: number) => selectionKey({ id: listId, version }, query);
  cache.samePages(key(advanced.version), key(from.version));
}

/**
 * A range's total from the list's band counts (bandCounts.ts), or a text equality's from its
 * value counts (valueCounts.ts), where they answer it: not on Citus, which keeps none, nor
 * where the shape's last total was small (counted then).
 */
async function keptTotal(
  ctx: ItemContext,
  list: Pick<ListSchemaRow, 'itemCount'>,
  query: ItemQuery,
  target: ReadTarget,
): Promise<AdvancedTotal | undefined> {
  if (!target.keptCounts) return undefined;
  const last = ctx.shapeTotals.get(target.shape);
  return ctx.keptCounts.total(target, query, list.itemCount, last);
}

/**
 * A range total never counted here, from the nearest bound that was (rangeNeighbours.ts):
 * its total advanced over the writes since, and the matches between the two bounds, in one
 * snapshot. Undefined where no neighbour is remembered or only a count can say.
 */
async function neighbourTotal(
  cache: ListReadCache,
  query: ItemQuery,
  target: TotalTarget,
): Promise<AdvancedTotal | undefined> {
  const neighbour = cache.neighbourOf(query);
  if (!neighbour) return undefined;
  // one slotted range: the bands walk its index whatever the bounds, so the read's plan serves
  const { where, plus, minus } = neighbourSql(neighbour, target.hiding ?? 'none');
  const advanced = await advanceTotal({ ...target, where }, neighbour.from, {
    plus,
    minus,
  });
  if (advanced) cache.rememberLatest(neighbour.query, neighbour.selection, advanced.base);
  return advanced;
}

/** Where a read counts, and how its statements are sent (readTarget). */
interface ReadTarget extends TotalTarget {
  hiding: Hiding;
  records: ListRecords;
  /** whether the list's band and value counts may answer (bandCounts.ts, valueCounts.ts) */
  keptCounts: boolean;
  /** the query's shape, the key of its last total (shapeTotals.ts) */
  shape: string;
}

/**
 * How a read's statements are sent. Where one plan serves every value (pinnedPlans.ts) the
 * count and a filter-first page are written for a plan kept for any value — the operand and,
 * on Postgres, the list's owner out of the planner's sight (infra/db/unplannedValue.ts) — and
 * go under their shape's name to sessions that keep that plan (infra/db/keptPlans.ts). Where
 * list_items is partitioned by list they read the list's own partition (listRecords.ts), so
 * the plan kept is one table's. A walked page is written apart (queryItems.ts, pageWhere): on
 * a large list kept under its list's name, walking the sort's index for any value; else
 * planned for its list, the range bound alone hidden. Citus reads the owner to choose the
 * shard, and its statements are not named (shapeStatements.ts): there only the bounds are
 * hidden.
 */
async function readTarget(
  ctx: ItemContext,
  list: Pick<ListSchemaRow, 'id' | 'ownerId'>,
  query: ItemQuery,
): Promise<ReadTarget> {
  const citus = await onCitus(ctx.db);
  const pinned = hasPinnedPlan(query);
  const named = pinned && !citus;
  const hiding = named ? 'all' : pinned ? 'bounds' : 'none';
  const where = compileWhere(query, hiding);
  // a Citus database keeps no band or value counts (docs/scaling.md)
  return {
    db: ctx.db,
    ownerId: list.ownerId,
    listId: list.id,
    where,
    hiding,
    records: await listRecords(ctx.db, list.id),
    keptCounts: !citus,
    shape: shapeKey(query),
  };
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
