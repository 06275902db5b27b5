import type { Caller } from '../admission/caller.js';
import type { Database } from '../infra/db/client.js';
import type { FieldCipher } from './encryption/cipher.js';
import { ListReadCache } from './items/readCache.js';
import { RecentLists } from './items/recentLists.js';
import { prepareListQueries, type ListQueries } from './queries.js';

/** What the list and list item operations need from the app, built once at start-up. */
export interface ListsContext {
  db: Database;
  cipher: FieldCipher;
  clock: () => Date;
  queries: ListQueries;
  /** lists addListItem read lately (recentLists.ts) */
  recentLists: RecentLists;
  /** getListItems answers per list version (readCache.ts) */
  readCache: ListReadCache;
}

/** A list item operation's context: the app's, and who is calling. */
export interface ItemContext extends ListsContext {
  caller: Caller;
}

export function createListsContext(
  db: Database,
  cipher: FieldCipher,
  clock: () => Date,
  cacheRows = 0,
): ListsContext {
  return {
    db,
    cipher,
    clock,
    queries: prepareListQueries(db),
    recentLists: new RecentLists(),
    readCache: new ListReadCache(cacheRows),
  };
}
