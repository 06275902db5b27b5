/** The bench's statistics: one median, one quantile, one median round. */
import type { LoadResult } from './load.js';

/** The middle value; for an even count, the mean of the two middle ones (no lean either way). */
export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The value at `q` (0…1) of ascending `sorted`: the q·n-th, the last for q = 1; NaN when empty. */
export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** The round with the median throughput, whole (its p50 and p99 with it). */
export function medianRound(results: LoadResult[]): LoadResult {
  return [...results].sort((x, y) => x.rps - y.rps)[Math.floor(results.length / 2)]!;
}

/** The median of `runs` timed calls of `fn` in ms, after `warmups` untimed ones. */
export async function medianMs(
  fn: () => Promise<unknown>,
  runs: number,
  warmups = 2,
): Promise<number> {
  for (let i = 0; i < warmups; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}
