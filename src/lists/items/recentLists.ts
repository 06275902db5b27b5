import type { ListSchemaRow } from '../../infra/db/schema/listSchemas.js';
import { BoundedMap } from '../../shared/boundedMap.js';

const MAX_LISTS = 5000;
const TTL_MS = 60_000;

/**
 * Lists that addListItem and getListItems read lately, so a run of inserts into one list (or
 * of reads with filters never sent before: items/listRead.ts) skips the lookup
 * round trip, a large share of a single insert (docs/records.md). Safe because the insert
 * itself is guarded: it writes only while the list is live and its fields are the ones the
 * values were validated against (itemRows.ts), and any failure on a remembered list is
 * decided again on a fresh read (addItem.ts). An instance never answers from what it
 * remembers alone.
 */
export class RecentLists {
  private readonly lists = new BoundedMap<string, { list: ListSchemaRow; at: number }>(MAX_LISTS);

  get(id: string, nowMs: number): ListSchemaRow | undefined {
    const entry = this.lists.get(id);
    if (!entry) return undefined;
    if (nowMs - entry.at <= TTL_MS) return entry.list;
    this.lists.delete(id);
    return undefined;
  }

  remember(list: ListSchemaRow, nowMs: number): void {
    this.lists.set(list.id, { list, at: nowMs });
  }

  forget(id: string): void {
    this.lists.delete(id);
  }
}
