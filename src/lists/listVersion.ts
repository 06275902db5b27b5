import { sql } from 'drizzle-orm';

/**
 * A list's next version. Every change the list's answers could show — an item added, changed
 * or deleted, a field added or deleted — sets `list_schemas.version` to this in the same
 * transaction, so an answer remembered under a version stays exact while the version stands
 * (items/readCache.ts). Background work whose effect no answer shows (erasing a deleted
 * field's values, re-sealing encrypted values under a new key) leaves it alone.
 */
export const nextVersion = sql`version + 1`;
