import type { LoadResult } from './load.js';

/** What a sweep point's ratio is made of: both sides' loads. */
interface Point {
  api: LoadResult;
  plain: LoadResult;
  ratio: number;
}

/**
 * API/plain at a point. A side that answered nothing in its longest point (sweepBench.ts, MAX_POINT_SECONDS)
 * ran below one request per that time: the ratio is then a bound, the other side's rate
 * against that one request, shown as `> x` or `< x` (ratioText) instead of infinity.
 */
export function pointRatio(api: LoadResult, plain: LoadResult): number {
  return Math.max(api.requests, 1) / api.seconds / (Math.max(plain.requests, 1) / plain.seconds);
}

/** The ratio as the report shows it: a bound where one side answered nothing. */
export function ratioText(r: Point): string {
  if (r.api.requests === 0 && r.plain.requests === 0) return 'none answered';
  const bound = r.plain.requests === 0 ? '> ' : r.api.requests === 0 ? '< ' : '';
  return `${bound}${r.ratio.toFixed(2)}`;
}

/** A side's p99 in ms, or a dash where it answered nothing. */
export const p99Text = (side: LoadResult, digits: number) =>
  side.requests === 0 ? '—' : side.p99.toFixed(digits);
