import { fromDomainError } from '../http/httpErrors.js';
import type { Database } from '../infra/db/client.js';
import {
  DomainError,
  NotFoundError,
  ValidationError,
  domainErrors,
  type ValidationErrors,
} from '../shared/domainErrors.js';

/** The outcome of one item of a batch that is not all-or-nothing. */
export interface ItemOutcome {
  index: number;
  status: number;
  data?: unknown;
  errors?: ValidationErrors;
  message?: string;
}

export interface BatchResult<R> {
  /** atomic: every item's result, in input order */
  results: R[];
  /** not atomic: one outcome per item, in input order */
  outcomes: ItemOutcome[];
}

/**
 * Runs `run` for each item of a batch. `atomic`: in one transaction, the first failing item
 * undoes everything and its error is re-keyed under `items.<index>` (a 422 lists that item's
 * errors; a 404 names `items.<index>.<param>`; a 403 stays a 403). Not atomic: each item on
 * its own, a failure becomes that item's outcome and the others stand.
 */
export async function runBatch<T, R>(
  /** the batch parameter the error keys start with: `items.3.qty`, `contacts.0.phone` */
  param: string,
  db: Database,
  items: readonly T[],
  atomic: boolean,
  run: (item: T, index: number, db: Database) => Promise<R>,
  outcomeOf: (result: R, index: number) => ItemOutcome,
): Promise<BatchResult<R>> {
  if (atomic) {
    const results = await db.transaction(async (tx) => {
      const done: R[] = [];
      for (const [index, item] of items.entries()) {
        try {
          done.push(await run(item, index, tx));
        } catch (err) {
          throw rekeyed(err, `${param}.${index}`);
        }
      }
      return done;
    });
    return { results, outcomes: [] };
  }
  const outcomes: ItemOutcome[] = [];
  for (const [index, item] of items.entries()) {
    try {
      outcomes.push(outcomeOf(await run(item, index, db), index));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      outcomes.push(failedOutcome(rekeyed(err, `${param}.${index}`), index));
    }
  }
  return { results: [], outcomes };
}

/** An item's domain error, its parameter keys moved under `items.<index>`. */
export function rekeyed(err: unknown, prefix: string): unknown {
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

export function failedOutcome(err: unknown, index: number): ItemOutcome {
  const mapped = fromDomainError(err as DomainError);
  const body = mapped.body as { errors?: ValidationErrors; message?: string; error?: string };
  return mapped.status === 422
    ? { index, status: 422, errors: body.errors }
    : { index, status: mapped.status, message: body.message ?? body.error };
}
