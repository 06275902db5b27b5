import type { Logger } from 'pino';
import type { Database } from '../../infra/db/client.js';
import type { ItemQuery } from '../filters/query.js';
import { bandTotal } from './bandCounts.js';
import type { AdvancedTotal, TotalTarget } from './listTotals.js';
import type { ShapeTotal } from './shapeTotals.js';
import { valueTotal } from './valueCounts.js';
import { Recounts } from './recounts.js';

/**
 * Counts a list keeps of one slot's values, taken by a count of the list and brought forward
 * over the change feed: per value band of a number or date slot, for a range's total
 * (bandCounts.ts), and per frequent value of a text slot, for an equality's (valueCounts.ts).
 * Read where a list is large and the condition's shape matched many records last, so that a
 * first-time total need not count the matches.
 */
export class KeptCounts {
  private readonly options: KeptCountOptions;
  private readonly bands: Recounts;
  private readonly values: Recounts;

  constructor(
    private readonly db: Database,
    options: Partial<KeptCountOptions> = {},
    log?: Pick<Logger, 'warn'>,
  ) {
    this.options = keptCountOptions(options);
    const failed = (kind: string) => (err: unknown, key: string) =>
      log?.warn(
        { err, key },
        `recounting a list's ${kind} counts failed; its reads count meanwhile`,
      );
    this.bands = new Recounts(this.options.recountAfter, failed('band'));
    this.values = new Recounts(this.options.recountAfter, failed('value'));
  }

  /**
   * The query's total from the list's band or value counts, or undefined where they cannot
   * answer or should not (a small list, a shape whose last total was small: KEPT_MIN_RECORDS,
   * KEPT_MIN_MATCHES, KEPT_MIN_SHARE): counted then.
   */
  async total(
    target: TotalTarget,
    query: ItemQuery,
    records: number,
    last: ShapeTotal | undefined,
  ): Promise<AdvancedTotal | undefined> {
    const { minRecords, minMatches, minShare } = this.options;
    if (records < minRecords || (last && last.total < minMatches)) return undefined;
    // a range's counts still count the bound's own band: not for a small share (KEPT_MIN_SHARE)
    const bands = !(last && last.total < last.records * minShare);
    // a pair of ranges: where its shape last matched more than half the list (PAIR_MIN_SHARE)
    const pairs = last !== undefined && last.total > last.records * PAIR_MIN_SHARE;
    return (
      (bands ? await bandTotal(this.db, this.bands, target, query, pairs) : undefined) ??
      (await valueTotal(this.db, this.values, target, query))
    );
  }
}

/**
 * When a list's kept counts (bandCounts.ts, valueCounts.ts) answer a read: the defaults below,
 * which tests set low.
 */
export interface KeptCountOptions {
  /** the least records of a list (KEPT_MIN_RECORDS) */
  minRecords: number;
  /** the writes since the counts past which a read brings them forward (RECOUNT_AFTER) */
  recountAfter: number;
  /** the least records the shape's last total matched (KEPT_MIN_MATCHES) */
  minMatches: number;
  /** for band counts, the least share of the list it matched (KEPT_MIN_SHARE) */
  minShare: number;
}

/**
 * Lists smaller than this count their matches: a count of a few thousand index entries costs
 * less than a kept count's statement (on a list of 10,000, 0.84 of counting at 5 %).
 */
export const KEPT_MIN_RECORDS = 20_000;

/**
 * Past this many writes since the counts, they are brought forward in the background: until
 * then every read of them pays a primary-key probe for each write since (advanceTotal), as
 * the advanced total is not kept. At 500, a 1M list read 350 writes after its counts answered
 * `string =` 50 % at 458 requests a second against 1,204 with fresh counts; at 50, 1,205
 * (docs/benchmarks.md, "Counts per text value"). An advance costs the writes since, not the list.
 */
export const RECOUNT_AFTER = 50;

/**
 * A condition whose shape (its field and operator, whatever the value) last matched fewer
 * records than this is counted, not read from the kept counts: a count of that many index
 * entries costs no more than the counts' statement and a page read after it, where a count
 * can bring its page in the same statement. Measured, first-time reads in paired rounds
 * against counting (docs/benchmarks.md, "Counts per text value"): 5,000 matches 0.93–0.95,
 * 10,000 1.01–1.16, 50,000 2.0–2.5, on lists of 100,000 and 1,000,000 alike.
 */
export const KEPT_MIN_MATCHES = 8_000;

/**
 * A range whose shape last matched less than this share of the list is counted too: its band
 * counts still count the bound's own band up to the bound (two significant digits put about
 * 1 % of evenly spread values in a band), so below half a band a count reads fewer entries
 * (docs/records.md, "Counts per value band"). It binds on lists past 1.6M records.
 */
export const KEPT_MIN_SHARE = 0.005;

/**
 * Two ranges (`a AND b`, both on banded slots) whose shape last matched more than this share of
 * the list are totalled as `a`'s band counts less the records `a` holds and `b` does not
 * (bandPairs.ts). A count of the pair reads the smaller of the two ranges' index entries, at
 * least as many as the pair holds; this reads the smaller of `a`'s and `b`'s complement's, at
 * most the records the pair leaves out: fewer wherever the pair holds more than half the list.
 * Below that the count is as cheap or cheaper, so it counts.
 */
export const PAIR_MIN_SHARE = 0.5;

/** The options with their defaults where unset. */
function keptCountOptions(options: Partial<KeptCountOptions> = {}): KeptCountOptions {
  return {
    minRecords: options.minRecords ?? KEPT_MIN_RECORDS,
    recountAfter: options.recountAfter ?? RECOUNT_AFTER,
    minMatches: options.minMatches ?? KEPT_MIN_MATCHES,
    minShare: options.minShare ?? KEPT_MIN_SHARE,
  };
}
