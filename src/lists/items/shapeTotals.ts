import { BoundedMap } from '../../shared/boundedMap.js';
import type { ItemQuery } from '../filters/query.js';

const MAX_SHAPES = 10_000;

/** A shape's last count: its total, and the list's records in the same snapshot. */
export interface ShapeTotal {
  total: number;
  records: number;
}

/**
 * The last total this instance counted for each list and condition shape (the field and
 * operator, not the value): a hint of how many the next value of the same shape matches,
 * which decides whether a first-time read asks for its page with its count
 * (countedPage.ts). Only a guess: a wrong one costs a scan up to the cap, never an answer.
 */
export class ShapeTotals {
  private readonly totals = new BoundedMap<string, ShapeTotal>(MAX_SHAPES);

  get(key: string): ShapeTotal | undefined {
    return this.totals.get(key);
  }

  set(key: string, total: ShapeTotal): void {
    this.totals.set(key, total);
  }
}

/** A query's shape as ShapeTotals keys it: the list, and each condition's field and operator. */
export function shapeKey(query: ItemQuery): string {
  const conditions = query.conditions.map((c) => `${c.field.slug}\u0000${c.op}`).join('\u0001');
  return `${query.listId}\u0002${conditions}`;
}
