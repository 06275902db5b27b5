import type { SQL } from 'drizzle-orm';
import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import type { StoredRecord } from './storedJson.js';
import type { StoredChanges } from './storedRow.js';

/** A record to insert (insertItemRow): its list, what it holds and when. */
export interface NewItem {
  ownerId: number;
  listId: string;
  /** the fields the values were validated against: the insert's guard */
  fieldsSeen: readonly StoredField[];
  changes: StoredChanges;
  now: Date;
  /** chosen by the caller where its answer is written before the insert; else a new one */
  id?: string;
  /** a data-modifying CTE run with the insert, reading `inserted` (an idempotency key's answer) */
  also?: SQL;
  /** the record's JSON to store with it (storedJson.ts) */
  stored?: StoredRecord;
}
