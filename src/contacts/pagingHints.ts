import type { ContactFilters } from './contactParams.js';

/** "The first `offset` matching contacts end at id `lastId`" — a keyset seek point. */
export interface Position {
  offset: number;
  lastId: number;
}

/**
 * Short-lived hints that make deep contact pages cheap: remembered page ends (so the next
 * offset is a keyset seek) and computed totals. Every key carries the scope's version from
 * contact_stats, which Postgres triggers bump on any change that could shift offsets, so a
 * hint is never consulted after the data it describes has changed. Hints are best effort:
 * when the store fails, the listing answers from Postgres alone.
 */
export interface PagingHints {
  /** the remembered position nearest to, and not after, `offset` */
  nearest(key: string, offset: number): Promise<Position | undefined>;
  remember(key: string, position: Position): Promise<void>;
  total(key: string): Promise<number | undefined>;
  rememberTotal(key: string, total: number): Promise<void>;
}

/** How long a hint lives: an export window, not longer (seconds). */
export const HINT_TTL_SECONDS = 600;
/** Positions kept per listing; the lowest offsets are dropped first (exports move forward). */
export const MAX_POSITIONS = 512;

/** Per account, scope, date window and scope version. */
export function hintKey(accountId: number, filters: ContactFilters, version: number): string {
  const scope = filters.botId === undefined ? '*' : String(filters.botId);
  return `${accountId}:${scope}:${filters.dateFrom ?? ''}:${filters.dateTo ?? ''}:v${version}`;
}
