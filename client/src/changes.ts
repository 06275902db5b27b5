import type { ParamsOf, ResultOf } from './types.js';

type Caller = (
  method: 'getChanges',
  params: ParamsOf<'getChanges'>,
) => Promise<ResultOf<'getChanges'>>;

/** One answer of getChanges: the changes, and where to resume after them. */
export type ChangesPage = ResultOf<'getChanges'>;

export interface FollowOptions {
  /** keep polling at the head instead of stopping there; default false */
  follow?: boolean;
  /** wait between polls at the head, in ms; default 1000 */
  pollIntervalMs?: number;
  /** stops following (the generator returns after the page in flight) */
  signal?: AbortSignal;
}

/**
 * getChanges page after page from `since` (omitted: the oldest change kept), each page's
 * `meta.next_cursor` passed as the next `since`. Yields whole pages so the resume point is
 * exact: apply `data`, then save `meta.next_cursor`; a restart from the saved cursor misses
 * nothing and repeats nothing. Stops at the head unless `follow`.
 */
export async function* followChanges(
  call: Caller,
  params: ParamsOf<'getChanges'>,
  { follow = false, pollIntervalMs = 1000, signal }: FollowOptions,
  sleep: (ms: number) => Promise<void>,
): AsyncGenerator<ChangesPage> {
  let since = (params as { since?: string }).since;
  while (!signal?.aborted) {
    const page = await call('getChanges', { ...params, ...(since ? { since } : {}) });
    since = page.meta.next_cursor;
    if (page.data.length > 0) yield page;
    if (page.meta.has_more) continue;
    if (!follow) return;
    await sleep(pollIntervalMs);
  }
}
