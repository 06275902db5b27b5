import type { ListSchemaRow } from '../../infra/db/schema/listSchemas.js';
import { BoundedMap } from '../../shared/boundedMap.js';
import type { JsonText } from '../../shared/orderedJson.js';
import type { ItemQuery } from '../filters/query.js';
import type { PageRow } from './foundItem.js';
import type { SnapshotTotal } from './listTotals.js';
import { NEIGHBOUR_MIN_TOTAL, RangeNeighbours, type Neighbour } from './rangeNeighbours.js';

/**
 * A remembered page. A list with encrypted fields keeps its rows as stored (sealed values
 * still sealed) and presents them per request; any other list keeps each record's answer as
 * written JSON, so a repeated read neither presents nor serializes records again.
 */
export type CachedPage = { rows: PageRow[] } | { json: JsonText[] };

function sizeOf(page: CachedPage): number {
  return 'rows' in page ? page.rows.length : page.json.length;
}

export interface ListReadCacheOptions {
  /** the least total a new range bound starts from (rangeNeighbours.ts) */
  neighbourMinTotal?: number;
}

/** Filtered totals are numbers: this many are kept whatever the row budget. */
const MAX_TOTALS = 20_000;

/** What every server's view of the cache shares (forAnotherServer). */
interface RememberedAnswers {
  totals: BoundedMap<string, number>;
  /** per selection (any version): the newest total with its snapshot, to advance from */
  latest: BoundedMap<string, SnapshotTotal>;
  /** bounded by the rows they hold */
  pages: BoundedMap<string, CachedPage>;
  /** per selection key: the earlier version's key whose pages it answers (samePages) */
  pagesOf: BoundedMap<string, string>;
  /** the remembered bounds of each range, for a new bound's total (rangeNeighbours.ts) */
  neighbours: RangeNeighbours;
}

function rememberedAnswers(
  maxRows: number,
  { neighbourMinTotal = NEIGHBOUR_MIN_TOTAL }: ListReadCacheOptions,
): RememberedAnswers {
  return {
    totals: new BoundedMap(MAX_TOTALS),
    latest: new BoundedMap(MAX_TOTALS),
    pages: new BoundedMap(maxRows, { weigh: sizeOf }),
    pagesOf: new BoundedMap(MAX_TOTALS),
    neighbours: new RangeNeighbours(
      maxRows > 0 ? MAX_TOTALS : 0,
      (q) => selectionOf(q.listId, q),
      neighbourMinTotal,
    ),
  };
}

/**
 * What getListItems answered lately, per list version: filtered totals and the stored rows
 * of pages. Every change a list's answers could show bumps its version in the same
 * transaction (listVersion.ts), and every request reads the list's current version first, so
 * a remembered answer is exact by construction — on every instance, without invalidation
 * messages. Entries of older versions are never read again and age out, but for pages a
 * later version answers where no write since touched their selection (samePages).
 *
 * Pages are kept as CachedPage says: never with a decrypted value.
 * Least recently used entries go first once `maxRows` rows are held.
 */
export class ListReadCache {
  /**
   * what is being computed now, by `t:`/`p:` and the entry's key: this server's alone
   * (forAnotherServer), the remembered answers shared by all
   */
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(
    private readonly maxRows: number,
    options: ListReadCacheOptions = {},
    private readonly remembered: RememberedAnswers = rememberedAnswers(maxRows, options),
  ) {}

  /**
   * The same remembered answers for reads sent to another server (a read replica,
   * replication/readRouting.ts), with their own computations in flight: a request never
   * waits on another server's count or page. Were they shared, a replica failing mid-count
   * would fail the read the primary runs in its place, and it would answer 503.
   */
  forAnotherServer(): ListReadCache {
    return new ListReadCache(this.maxRows, {}, this.remembered);
  }

  get enabled(): boolean {
    return this.maxRows > 0;
  }

  total(key: string): number | undefined {
    return this.remembered.totals.touch(key);
  }

  rememberTotal(key: string, total: number): void {
    if (!this.enabled) return;
    this.remembered.totals.set(key, total);
  }

  /**
   * The remembered total of `key`, or `count`'s, shared by every request that asks for `key`
   * while it runs: after a write bumps a list's version, the requests in flight for the new
   * version wait for one count instead of each sending its own.
   */
  totalOr(key: string, count: () => Promise<number>): number | Promise<number> {
    return this.total(key) ?? this.once(`t:${key}`, count, (n) => this.rememberTotal(key, n));
  }

  /**
   * `count`'s answer for a selection this instance has no total of (listRead.ts), or undefined
   * while another request's count of it runs. That count is not shared: its snapshot may
   * predate a write the asking caller saw committed. The caller reads the list's version
   * instead and shares a count of that version (totalOr), as a read after a write does.
   */
  firstCount<V>(selection: string, count: () => Promise<V>): Promise<V> | undefined {
    const key = `f:${selection}`;
    if (this.pending.has(key)) return undefined;
    return this.once(key, count, () => undefined);
  }

  /** The newest remembered total of a selection, whatever its version (listTotals.ts). */
  latestTotal(selection: string): SnapshotTotal | undefined {
    return this.remembered.latest.touch(selection);
  }

  /** `query`'s newest total, under its `selection`; a range's bound becomes a neighbour. */
  rememberLatest(query: ItemQuery, selection: string, total: SnapshotTotal): void {
    if (!this.enabled) return;
    const held = this.remembered.latest.get(selection);
    if (held && held.version > total.version) return;
    this.remembered.latest.set(selection, total);
    this.remembered.neighbours.remember(query, selection);
  }

  /** The nearest remembered bound of one of `query`'s ranges, with its total. */
  neighbourOf(query: ItemQuery): Neighbour | undefined {
    return this.remembered.neighbours.nearest(query, (selection) => this.latestTotal(selection));
  }

  /**
   * Remembers that a selection's pages at one version (`later`, a selectionKey) are its pages
   * at an earlier one (`earlier`): no write between the two touched a record it held or holds
   * (listTotals.ts, AdvancedTotal.touched). Chains resolve to the first version, so the pages
   * read at any of them answer all.
   */
  samePages(later: string, earlier: string): void {
    if (!this.enabled) return;
    this.remembered.pagesOf.set(later, this.pagesKey(earlier));
  }

  /** The selection key a selection's pages are remembered under (samePages). */
  pagesKey(selection: string): string {
    return this.remembered.pagesOf.touch(selection) ?? selection;
  }

  page(key: string): CachedPage | undefined {
    return this.remembered.pages.touch(key);
  }

  /** The remembered page of `key`, or `select`'s, shared as `totalOr` shares a count. */
  pageOr(key: string, select: () => Promise<CachedPage>): CachedPage | Promise<CachedPage> {
    return this.page(key) ?? this.once(`p:${key}`, select, (page) => this.rememberPage(key, page));
  }

  /** With the cache off nothing is shared: every request is answered by its own queries. */
  private once<V>(key: string, compute: () => Promise<V>, remember: (v: V) => void): Promise<V> {
    if (!this.enabled) return compute();
    const running = this.pending.get(key) as Promise<V> | undefined;
    if (running) return running;
    const started = compute()
      .then((value) => {
        remember(value);
        return value;
      })
      .finally(() => this.pending.delete(key));
    this.pending.set(key, started);
    return started;
  }

  rememberPage(key: string, page: CachedPage): void {
    if (!this.enabled || sizeOf(page) > this.maxRows) return;
    this.remembered.pages.set(key, page);
  }
}

/**
 * The key of what a query selects in a list, in any version: the conditions in a fixed
 * order (they are ANDed, so order does not matter) and the contact / bot links.
 */
export function selectionOf(listId: string, query: ItemQuery): string {
  const conditions = query.conditions
    .map((c) => JSON.stringify([c.field.slot ?? c.field.slug, c.kind, c.op, c.operand]))
    .sort();
  return JSON.stringify([listId, conditions, query.links.contact, query.links.bot]);
}

/** The key of what a query selects in one version of a list. */
export function selectionKey(list: Pick<ListSchemaRow, 'id' | 'version'>, query: ItemQuery) {
  return JSON.stringify([selectionOf(list.id, query), list.version]);
}

/** The key of one page of a selection: its order, size and start. */
export function pageKey(selection: string, query: ItemQuery, limit: number, offset: number) {
  const sort =
    query.sort.by === 'field'
      ? [query.sort.field.slot ?? query.sort.field.slug, query.sort.kind, query.sort.direction]
      : [query.sort.by, query.sort.direction];
  return JSON.stringify([selection, sort, limit, offset]);
}
