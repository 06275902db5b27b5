import type { AppDeps } from '../appDeps.js';
import { hintKey } from './pagingHints.js';
import type { ContactFilters } from './contactParams.js';
import {
  countContacts,
  pageOfContacts,
  readScopeState,
  type ListedContact,
  type Scope,
  type ScopeState,
} from './contactRepository.js';

type ListingDeps = Pick<AppDeps, 'db' | 'contactPagingHints'>;

export interface ListingPage {
  items: ListedContact[];
  total: number;
}

interface Resolved {
  scope: Scope;
  state: ScopeState;
  key: string;
}

/**
 * getContacts: the caller's contacts in ascending id, `limit` of them after `offset`, and the
 * total of matches. Equal to a plain `OFFSET` query, but deep offsets cost a keyset seek
 * when the page before was remembered, and totals are counted once per scope version.
 */
export async function listContacts(
  deps: ListingDeps,
  ownerId: number,
  filters: ContactFilters,
  window: { offset: number; limit: number },
): Promise<ListingPage> {
  const resolved = await resolve(deps, ownerId, filters);
  if (!resolved) return { items: [], total: 0 };
  const [items, total] = await Promise.all([
    page(deps, resolved, filters, window),
    totalOf(deps, resolved, filters),
  ]);
  return { items, total };
}

/** getNumberOfContacts: the same matches, counted. */
export async function countCallerContacts(
  deps: ListingDeps,
  ownerId: number,
  filters: ContactFilters,
): Promise<number> {
  const resolved = await resolve(deps, ownerId, filters);
  return resolved ? totalOf(deps, resolved, filters) : 0;
}

async function resolve(
  deps: ListingDeps,
  ownerId: number,
  filters: ContactFilters,
): Promise<Resolved | null> {
  const { dateFrom, dateTo } = filters;
  if (dateFrom !== undefined && dateTo !== undefined && dateFrom > dateTo) return null;
  const state = await readScopeState(deps.db, ownerId, filters.botId);
  if (!state) return null;
  const scope: Scope = { ownerId, botId: filters.botId };
  return { scope, state, key: hintKey(ownerId, filters, state.version) };
}

async function page(
  deps: ListingDeps,
  { scope, key }: Resolved,
  filters: ContactFilters,
  { offset, limit }: { offset: number; limit: number },
): Promise<ListedContact[]> {
  const hints = deps.contactPagingHints;
  const from = (await hints.nearest(key, offset)) ?? { offset: 0, lastId: 0 };
  const items = await pageOfContacts(deps.db, scope, filters, {
    afterId: from.lastId,
    skip: offset - from.offset,
    limit,
  });
  const last = items.at(-1);
  // Not awaited: a hint only speeds up later pages (best effort, never throws), and the next
  // command on the same Redis connection runs after it anyway.
  if (last) void hints.remember(key, { offset: offset + items.length, lastId: last.id });
  return items;
}

async function totalOf(
  deps: ListingDeps,
  { scope, state, key }: Resolved,
  filters: ContactFilters,
): Promise<number> {
  // Without a date window the trigger-kept live count is the answer, in O(1).
  if (filters.dateFrom === undefined && filters.dateTo === undefined) return state.liveCount;
  const hints = deps.contactPagingHints;
  const cached = await hints.total(key);
  if (cached !== undefined) return cached;
  const total = await countContacts(deps.db, scope, filters);
  await hints.rememberTotal(key, total);
  return total;
}
