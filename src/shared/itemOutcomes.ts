import {
  DomainError,
  NotFoundError,
  ValidationError,
  domainErrors,
  type ValidationErrors,
} from './domainErrors.js';

/**
 * What one item of a batch became, or the domain error it met, keyed by its position in the
 * batch. The HTTP edge (http/itemOutcomeBodies.ts) gives each outcome its status.
 */
export type ItemOutcome<T> = ItemSuccess<T> | ItemFailure;

export interface ItemSuccess<T> {
  index: number;
  result: T;
}

export interface ItemFailure {
  index: number;
  /** its parameter keys under `<batch>.<index>` (underItem) */
  error: DomainError;
}

/**
 * An item's domain error with its parameter keys moved under `<batch>.<index>`: a 422 keyed
 * `data.qty` or `phone` becomes `items.3.qty` or `contacts.0.phone` (in its messages too); a
 * missing object becomes that item's 422 (`items.3.item_id`); any other error is unchanged.
 */
export function underItem(err: DomainError, batch: string, index: number): DomainError;
export function underItem(err: unknown, batch: string, index: number): unknown;
export function underItem(err: unknown, batch: string, index: number): unknown {
  const prefix = `${batch}.${index}`;
  if (err instanceof ValidationError) {
    const errors: ValidationErrors = {};
    for (const [key, messages] of Object.entries(err.errors)) {
      const moved = `${prefix}.${key.replace(/^data\./, '')}`;
      errors[moved] = messages.map((m) => m.split(key).join(moved));
    }
    return domainErrors.validation(errors);
  }
  if (err instanceof NotFoundError) {
    return domainErrors.invalid(`${prefix}.${err.param}`, err.message);
  }
  return err;
}

/** The failure of item `index`, its error keyed under the item. */
export function failedItem(err: DomainError, batch: string, index: number): ItemFailure {
  return { index, error: underItem(err, batch, index) };
}

/**
 * The one error of an all-or-nothing batch whose items failed: a 422 with every item's
 * errors, or, when none failed validation, the first failure's own error (a 403).
 */
export function wholeBatchError(failures: readonly ItemFailure[]): DomainError {
  const errors: ValidationErrors = {};
  for (const { error } of failures) {
    if (error instanceof ValidationError) Object.assign(errors, error.errors);
  }
  if (Object.keys(errors).length > 0) return domainErrors.validation(errors);
  return failures[0]!.error;
}

/**
 * Runs `check` on each item of a batch, in order: the items it passed, each with what it
 * returned, and the domain error of every other one, keyed under `<batch>.<index>`.
 */
export function checkEach<I, V extends object>(
  batch: string,
  items: readonly I[],
  check: (item: I) => V,
): { passed: (V & { index: number })[]; failed: Map<number, ItemFailure> } {
  const passed: (V & { index: number })[] = [];
  const failed = new Map<number, ItemFailure>();
  for (const [index, item] of items.entries()) {
    try {
      passed.push({ ...check(item), index });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      failed.set(index, failedItem(err, batch, index));
    }
  }
  return { passed, failed };
}

/** Successes and failures together, in the batch's order. */
export function inBatchOrder<T>(
  failures: Iterable<ItemFailure>,
  successes: readonly ItemSuccess<T>[],
): ItemOutcome<T>[] {
  return [...failures, ...successes].sort((a, b) => a.index - b.index);
}
