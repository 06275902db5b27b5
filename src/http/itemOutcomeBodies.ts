import type { ValidationErrors } from '../shared/domainErrors.js';
import type { ItemOutcome } from '../shared/itemOutcomes.js';
import { fromDomainError } from './httpErrors.js';

/** One outcome of a batch sent with atomic=false, as answered. */
export interface ItemOutcomeBody {
  index: number;
  /** what the item alone would have been answered */
  status: number;
  data?: unknown;
  errors?: ValidationErrors;
  message?: string;
}

/** A success as the method answers it: its status and, unless 204, its data. */
export interface ItemAnswer {
  status: number;
  data?: unknown;
}

/**
 * The answer of a batch sent with atomic=false: each success as `answer` says, each failure
 * with the status and text its domain error gets alone (fromDomainError): a 422 with its
 * errors, any other status with its message.
 */
export function itemOutcomeBodies<T>(
  outcomes: readonly ItemOutcome<T>[],
  answer: (result: T) => ItemAnswer,
): ItemOutcomeBody[] {
  return outcomes.map((outcome) => {
    const { index } = outcome;
    if (!('error' in outcome)) return { index, ...answer(outcome.result) };
    const mapped = fromDomainError(outcome.error);
    const body = mapped.body as { errors?: ValidationErrors; message?: string; error?: string };
    return mapped.status === 422
      ? { index, status: 422, errors: body.errors }
      : { index, status: mapped.status, message: body.message ?? body.error };
  });
}
