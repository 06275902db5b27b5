import type { z } from 'zod';
import { domainErrors, ValidationError, type ValidationErrors } from '../../shared/domainErrors.js';
import { validateParams } from '../../shared/validate.js';

/**
 * Validation that must be merged with checks against the database (an unknown bot, a
 * slug already in the list) before answering, because one 422 lists every failing
 * field (the error rules). Same keys and texts as the request pipeline's validation.
 */
export type Checked<T> =
  { data: T; errors?: undefined } | { data?: undefined; errors: ValidationErrors };

export function checkParams<S extends z.ZodType>(schema: S, input: unknown): Checked<z.output<S>> {
  try {
    return { data: validateParams(schema, input) };
  } catch (err) {
    if (err instanceof ValidationError) return { errors: err.errors };
    throw err;
  }
}

export function throwIfInvalid(...parts: Array<ValidationErrors | undefined>): void {
  const merged: ValidationErrors = {};
  for (const part of parts) {
    for (const [key, messages] of Object.entries(part ?? {}))
      (merged[key] ??= []).push(...messages);
  }
  if (Object.keys(merged).length > 0) throw domainErrors.validation(merged);
}
