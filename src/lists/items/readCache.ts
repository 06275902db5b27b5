import type { ListSchemaRow } from '../../infra/db/schema/listSchemas.js';
import type { JsonText } from '../../shared/orderedJson.js';
import type { ItemQuery } from '../filters/query.js';
import type { ItemRow } from './foundItem.js';

/**
 * A remembered page. A list with encrypted fields keeps its rows as stored (sealed values
 * still sealed) and presents them per request; any other list keeps each record's answer as
 * written JSON, so a repeated read neither presents nor serializes records again.
 */
export type CachedPage = { rows: ItemRow[] } | { json: JsonText[] };

function sizeOf(page: CachedPage): number {
  return 'rows' in page ? page.rows.length : page.json.length;
}

/** Filtered totals are numbers: this many are kept whatever the row budget. */
const MAX_TOTALS = 20_000;

/**
 * What getListItems answered lately, per list version: filtered totals and the stored rows
 * of pages. Every change a list's answers could show bumps its version in the same
 * transaction (listVersion.ts), and every request reads the list's current version first, so
 * a remembered answer is exact by construction — on every instance, without invalidation
 * messages. Entries of older versions are never read again and age out.
 *
 * Pages are kept as CachedPage says: never with a decrypted value.
 * Least recently used entries go first once `maxRows` rows are held.
 */
export class ListReadCache {
  private readonly totals = new Map<string, number>();
  private readonly pages = new Map<string, CachedPage>();
  private rowsHeld = 0;

  constructor(private readonly maxRows: number) {}

  get enabled(): boolean {
    return this.maxRows > 0;
  }

  total(key: string): number | undefined {
    return touch(this.totals, key);
  }

  rememberTotal(key: string, total: number): void {
    if (!this.enabled) return;
    this.totals.delete(key);
    this.totals.set(key, total);
    if (this.totals.size > MAX_TOTALS) this.totals.delete(this.totals.keys().next().value!);
  }

  page(key: string): CachedPage | undefined {
    return touch(this.pages, key);
  }

  rememberPage(key: string, page: CachedPage): void {
    if (!this.enabled || sizeOf(page) > this.maxRows) return;
    this.forgetPage(key);
    this.pages.set(key, page);
    this.rowsHeld += sizeOf(page);
    while (this.rowsHeld > this.maxRows) this.forgetPage(this.pages.keys().next().value!);
  }

  private forgetPage(key: string): void {
    const page = this.pages.get(key);
    if (!page) return;
    this.pages.delete(key);
    this.rowsHeld -= sizeOf(page);
  }
}

/** A Map read as an LRU: a hit moves the entry to the end, the most recently used. */
function touch<V>(map: Map<string, V>, key: string): V | undefined {
  const value = map.get(key);
  if (value === undefined) return undefined;
  map.delete(key);
  map.set(key, value);
  return value;
}

/**
 * The key of what a query selects in one version of a list: the conditions in a fixed
 * order (they are ANDed, so order does not matter) and the contact / bot links.
 */
export function selectionKey(list: Pick<ListSchemaRow, 'id' | 'version'>, query: ItemQuery) {
  const conditions = query.conditions
    .map((c) => JSON.stringify([c.field.slot ?? c.field.slug, c.kind, c.op, c.operand]))
    .sort();
  return JSON.stringify([list.id, list.version, conditions, query.links.contact, query.links.bot]);
}

/** The key of one page of a selection: its order, size and start. */
export function pageKey(selection: string, query: ItemQuery, limit: number, offset: number) {
  const sort =
    query.sort.by === 'field'
      ? [query.sort.field.slot ?? query.sort.field.slug, query.sort.kind, query.sort.direction]
      : [query.sort.by, query.sort.direction];
  return JSON.stringify([selection, sort, limit, offset]);
}
