import type { SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Caller } from '../admission/caller.js';
import type { OrderedObject } from '../shared/orderedJson.js';
import type { Database } from '../infra/db/client.js';
import type { FieldCipher } from './encryption/cipher.js';
import { LayoutCache } from '../changes/layouts.js';
import { ListReadCache, type ListReadCacheOptions } from './items/readCache.js';
import { RecentLists } from './items/recentLists.js';
import { KeptCounts, type KeptCountOptions } from './items/keptCounts.js';
import { ShapeTotals } from './items/shapeTotals.js';
import { prepareListQueries, type ListQueries } from './queries.js';

/** What the list and list item operations need from the app, built once at start-up. */
export interface ListsContext {
  db: Database;
  cipher: FieldCipher;
  clock: () => Date;
  queries: ListQueries;
  /** lists addListItem and getListItems read lately (recentLists.ts) */
  recentLists: RecentLists;
  /** the last total of each list's condition shapes, a hint for first-time reads (shapeTotals.ts) */
  shapeTotals: ShapeTotals;
  /** getListItems answers per list version (readCache.ts) */
  readCache: ListReadCache;
  /** the lists' counts per value band and per text value, for a first-time total (keptCounts.ts) */
  keptCounts: KeptCounts;
  /** field layouts the change feed shows list items with */
  layouts: LayoutCache;
}

/** A list item operation's context: the app's, and who is calling. */
export interface ItemContext extends ListsContext {
  caller: Caller;
  /**
   * Run in the same statement as an added item, given the item as answered: a
   * data-modifying CTE that may read the CTE `inserted` (the new row's id).
   */
  alsoWrite?: (item: OrderedObject) => SQL;
}

export function createListsContext(
  db: Database,
  cipher: FieldCipher,
  clock: () => Date,
  cacheRows = 0,
  {
    keptCounts,
    log,
    ...cacheOptions
  }: ListReadCacheOptions & {
    keptCounts?: Partial<KeptCountOptions>;
    /** where background work the reads start tells of its failures */
    log?: Pick<Logger, 'warn'>;
  } = {},
): ListsContext {
  return {
    db,
    cipher,
    clock,
    queries: prepareListQueries(db),
    recentLists: new RecentLists(),
    shapeTotals: new ShapeTotals(),
    readCache: new ListReadCache(cacheRows, cacheOptions),
    keptCounts: new KeptCounts(db, keptCounts, log),
    layouts: new LayoutCache(),
  };
}

/** The same context with every query on `tx` (a batch run in one transaction). */
export function listsOnTransaction<C extends ListsContext>(ctx: C, tx: Database): C {
  return { ...ctx, db: tx, queries: prepareListQueries(tx) };
}
