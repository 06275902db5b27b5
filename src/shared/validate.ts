import type { z } from 'zod';
import { domainErrors, type ValidationErrors } from './domainErrors.js';

/** Runs a method's zod schema; every failing field becomes a dotted 422 key (the error rules). */
export function validateParams<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const found: ValidationErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : 'params';
    const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
    (found[key] ??= []).push(describeIssue(key, issue, missing));
  }
  throw domainErrors.validation(found);
}

/**
 * The value the client sent at a path. Zod issues carry no input unless asked to, so
 * "missing" is decided from the request itself: a wrong type is not "required".
 */
function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = input;
  for (const step of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, step)) {
      return undefined;
    }
    value = (value as Record<PropertyKey, unknown>)[step];
  }
  return value;
}

function describeIssue(key: string, issue: z.core.$ZodIssue, missing: boolean): string {
  const field = key.split('.').pop() ?? key;
  if (missing) return `The ${field} field is required.`;
  return issue.message.startsWith('The ') ? issue.message : `The ${field} field: ${issue.message}`;
}
