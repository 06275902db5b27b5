import type { LoadResult } from './load.js';
import { median, medianRound } from './stats.js';

export interface PairedResult {
  /** each side's median round, whole (its p50 and p99 with it) */
  a: LoadResult;
  b: LoadResult;
  /** the median of the per-round throughput ratios B/A */
  ratio: number;
  /** every round's ratio, in order */
  ratios: number[];
}

/**
 * Two sides measured in short back-to-back rounds, the order flipping each round, and
 * compared round by round. On a small shared machine throughput drifts within a minute (how
 * far: docs/benchmarks.md, "How it works"): sides measured far apart compare the drift, not
 * the sides, while the two halves of one round see nearly the same machine.
 */
export async function pairedRounds(
  rounds: number,
  a: () => Promise<LoadResult>,
  b: () => Promise<LoadResult>,
  onRound?: (round: number, a: LoadResult, b: LoadResult) => void,
): Promise<PairedResult> {
  const as: LoadResult[] = [];
  const bs: LoadResult[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      as.push(await a());
      bs.push(await b());
    } else {
      bs.push(await b());
      as.push(await a());
    }
    onRound?.(round, as[round]!, bs[round]!);
  }
  const ratios = as.map((x, n) => bs[n]!.rps / x.rps);
  return { a: medianRound(as), b: medianRound(bs), ratio: median(ratios), ratios };
}

/**
 * The A/B tools' run (diagnosis/ab.ts, diagnosis/firstTimeAb.ts): paired rounds of the two
 * loads, each round printed, then the median ratio B/A with each side's median p50.
 */
export async function printPairedRounds(
  rounds: number,
  a: () => Promise<LoadResult>,
  b: () => Promise<LoadResult>,
  label = '',
): Promise<PairedResult> {
  const result = await pairedRounds(rounds, a, b, (round, x, y) =>
    console.log(
      `round ${round + 1}: A ${x.rps.toFixed(0)} B ${y.rps.toFixed(0)} req/s, B/A ${(y.rps / x.rps).toFixed(2)}`,
    ),
  );
  console.log(
    `${label}median B/A ${result.ratio.toFixed(3)} (A p50 ${result.a.p50.toFixed(2)} ms, B p50 ${result.b.p50.toFixed(2)} ms)`,
  );
  return result;
}
