import { domainErrors, type ValidationErrors } from '../../shared/domainErrors.js';
import type { ReferenceProblems } from './references.js';

/** A failing item of a batch that is not all-or-nothing. */
export interface BatchFailure {
  index: number;
  status: 403 | 422;
  errors?: ValidationErrors;
  message?: string;
}

/** An item whose record is not in the list: `items.<index>.item_id`, as a 422. */
export function itemNotFoundFailure(index: number): BatchFailure {
  const key = `items.${index}.item_id`;
  return { index, status: 422, errors: { [key]: [domainErrors.itemNotFound().message] } };
}

/** `data.<slug>` keys and texts of one item's errors, under `items.<index>.<slug>`. */
export function rekeyErrors(errors: ValidationErrors, prefix: string): ValidationErrors {
  const out: ValidationErrors = {};
  for (const [key, messages] of Object.entries(errors)) {
    const moved = key.replace(/^data\./, `${prefix}.`);
    out[moved] = messages.map((m) => m.split(key).join(moved));
  }
  return out;
}

/** An all-or-nothing batch with failing items: one 422 with every error, or the 403. */
export function batchError(failed: readonly BatchFailure[]) {
  const errors: ValidationErrors = {};
  for (const f of failed) Object.assign(errors, f.status === 422 ? f.errors : {});
  if (Object.keys(errors).length > 0) return domainErrors.validation(errors);
  return domainErrors.foreignReference();
}

/**
 * The failures of referenceProblems' answer for a batch's valid items (`valid[i]` was checked
 * as its i-th entry), added to `failed`: a missing contact or bot is the item's 422, another
 * account's its 403.
 */
export function addReferenceFailures(
  problems: ReferenceProblems,
  valid: readonly { index: number }[],
  failed: Map<number, BatchFailure>,
): void {
  for (const [i, { index }] of valid.entries()) {
    const missing = problems.missing[i]!;
    if (Object.keys(missing).length > 0) failed.set(index, { index, status: 422, errors: missing });
    else if (problems.foreign[i])
      failed.set(index, { index, status: 403, message: domainErrors.foreignReference().message });
  }
}
