import {
  COMPLEMENT,
  compileWhere,
  isRangeOperator,
  type Hiding,
  type RangeOperator,
} from '../filters/compile.js';
import type { Condition, ItemQuery } from '../filters/query.js';
import type { SnapshotTotal } from './listTotals.js';

/**
 * A range filter never sent before usually has a neighbour that was: the same conditions
 * with another bound on one range (a bot's users type their own amounts and dates). Its total
 * is the neighbour's, brought forward over the writes since, plus the matches between the two
 * bounds:
 *
 *   total(R ∧ c(X)) = total(R ∧ c(Y)) + count(R ∧ c(X) ∧ ¬c(Y)) − count(R ∧ c(Y) ∧ ¬c(X))
 *
 * where ¬c is the complementary range on the same field (`<` and `>=`, `<=` and `>`); a record
 * without a value matches neither side. It holds for any X and Y: one of the two counts is
 * empty, the other walks the slot's index between the bounds only. A neighbour is taken only
 * on the inner side (below X for `<`/`<=`, above it for `>`/`>=`), so the band is part of
 * what counting X alone would read — never more.
 */

const UPPER_BOUNDS: ReadonlySet<string> = new Set(['<', '<=']);

/** Past this many bounds a family forgets its oldest. */
const BOUNDS_PER_FAMILY = 256;

/**
 * A neighbour saves about its own total's worth of counting (the new bound's count walks at
 * least that many entries) and costs a statement heavier than a count: below this total,
 * counting is the cheaper read. Measured on the sweep's lists of 10,000 and 100,000 records
 * (docs/benchmarks.md, "New bounds from a neighbour's total"): a neighbour of about 1,000
 * matches lost 10–30 % against counting, one of 5,000 or more gained.
 */
export const NEIGHBOUR_MIN_TOTAL = 5_000;

/** Where a range condition's bound sits on a line (to pick the nearest), or undefined. */
function position(c: Condition): number | undefined {
  const at =
    c.kind === 'numeric'
      ? Number(c.operand)
      : c.kind === 'date' || c.kind === 'datetime'
        ? Date.parse(c.operand)
        : Number.NaN;
  return Number.isFinite(at) ? at : undefined;
}

function isRange(c: Condition): c is Condition & { op: RangeOperator } {
  return isRangeOperator(c.op) && c.field.slot !== undefined && position(c) !== undefined;
}

/** The query with condition `index` bounded by `operand` instead. */
function withBound(query: ItemQuery, index: number, operand: string): ItemQuery {
  const conditions = query.conditions.map((c, i) => (i === index ? { ...c, operand } : c));
  return { ...query, conditions };
}

/** The query and the complement of its condition `index` bounded by `operand`. */
function beyond(query: ItemQuery, index: number, operand: string): ItemQuery {
  const c = query.conditions[index] as Condition & { op: RangeOperator };
  return {
    ...query,
    conditions: [...query.conditions, { ...c, op: COMPLEMENT[c.op], operand }],
  };
}

/**
 * The key every query differing from this one only in condition `index`'s bound shares.
 * `selectionOf` is the cache's key of a query (readCache.ts), whatever its conditions' order.
 */
function familyOf(query: ItemQuery, index: number, selectionOf: (q: ItemQuery) => string) {
  // a filter has one condition per field, so the field names the condition in any order
  const field = query.conditions[index]!.field;
  return JSON.stringify([field.slot ?? field.slug, selectionOf(withBound(query, index, ''))]);
}

/** A neighbour's remembered total and the statements that carry it to the query's. */
export interface Neighbour {
  /** the neighbour's selection (the cache's key), to remember it advanced */
  selection: string;
  from: SnapshotTotal;
  query: ItemQuery;
  /** R ∧ c(X) ∧ ¬c(Y), added */
  plus: ItemQuery;
  /** R ∧ c(Y) ∧ ¬c(X), taken away */
  minus: ItemQuery;
}

/**
 * The bounds remembered per family, each with its selection; the totals themselves stay in
 * the read cache (`latest`), which decides how long they live.
 */
export class RangeNeighbours {
  /** least recently extended family first; in each, the oldest bound first */
  private readonly families = new Map<string, Map<string, string>>();
  private bounds = 0;

  /** `maxBounds`: bounds held over all families (a bound is worth no more than its total) */
  constructor(
    private readonly maxBounds: number,
    private readonly selectionOf: (q: ItemQuery) => string,
    /** a neighbour whose total is below this is not worth its statement */
    private readonly minTotal = 0,
  ) {}

  /** How many bounds are held, over all families. */
  get size(): number {
    return this.bounds;
  }

  /** Notes that `query`'s total is remembered under `selection`. */
  remember(query: ItemQuery, selection: string): void {
    if (this.maxBounds <= 0) return;
    query.conditions.forEach((c, index) => {
      if (!isRange(c)) return;
      const family = familyOf(query, index, this.selectionOf);
      const bounds = this.families.get(family) ?? new Map<string, string>();
      this.families.delete(family);
      this.families.set(family, bounds);
      if (!bounds.delete(c.operand)) this.bounds++;
      bounds.set(c.operand, selection);
      if (bounds.size > BOUNDS_PER_FAMILY) this.forgetOldest(bounds, family);
      while (this.bounds > this.maxBounds) {
        const [oldest, held] = this.families.entries().next().value!;
        this.forgetOldest(held, oldest);
      }
    });
  }

  private forgetOldest(bounds: Map<string, string>, family: string): void {
    bounds.delete(bounds.keys().next().value!);
    this.bounds--;
    if (bounds.size === 0) this.families.delete(family);
  }

  /**
   * The nearest inner neighbour of `query` with a total `latest` still holds, over every
   * range condition; undefined when none is remembered.
   */
  nearest(
    query: ItemQuery,
    latest: (selection: string) => SnapshotTotal | undefined,
  ): Neighbour | undefined {
    let best:
      | { index: number; operand: string; selection: string; gap: number; from: SnapshotTotal }
      | undefined;
    query.conditions.forEach((c, index) => {
      if (!isRange(c)) return;
      const bounds = this.families.get(familyOf(query, index, this.selectionOf));
      if (!bounds) return;
      const x = position(c)!;
      const upper = UPPER_BOUNDS.has(c.op);
      for (const [operand, selection] of bounds) {
        const y = position({ ...c, operand });
        if (y === undefined) continue;
        const gap = upper ? x - y : y - x;
        // inner side only; an equal position may be another spelling of the same bound
        if (gap < 0 || operand === c.operand || (best && gap >= best.gap)) continue;
        const from = latest(selection);
        if (from && from.version >= 0 && from.total >= this.minTotal)
          best = { index, operand, selection, gap, from };
      }
    });
    if (!best) return undefined;
    const { index, operand, from } = best;
    const x = query.conditions[index]!.operand;
    const other = withBound(query, index, operand);
    return {
      selection: best.selection,
      from,
      query: other,
      plus: beyond(query, index, operand),
      minus: beyond(other, index, x),
    };
  }
}

/**
 * A neighbour's statements as SQL (compile.ts): its WHERE and the two bands, their values
 * hidden as the read's are (listRead.ts).
 */
export function neighbourSql(n: Neighbour, hiding: Hiding) {
  return {
    where: compileWhere(n.query, hiding),
    plus: [compileWhere(n.plus, hiding)],
    minus: [compileWhere(n.minus, hiding)],
  };
}
