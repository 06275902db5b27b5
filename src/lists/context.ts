import type { Caller } from '../admission/caller.js';
import type { Database } from '../infra/db/client.js';
import type { FieldCipher } from './encryption/cipher.js';
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
}

/** A list item operation's context: the app's, and who is calling. */
export interface ItemContext extends ListsContext {
  caller: Caller;
}

export function createListsContext(
  db: Database,
  cipher: FieldCipher,
  clock: () => Date,
): ListsContext {
  return { db, cipher, clock, queries: prepareListQueries(db), recentLists: new RecentLists() };
}
