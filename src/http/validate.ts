import type { z } from 'zod';
import { errors, type ValidationErrors } from './errors.js';

/** Runs a method's zod schema; every failing field becomes a dotted 422 key (spec 7). */
export function validateParams<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const found: ValidationErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : 'params';
    (found[key] ??= []).push(describeIssue(key, issue));
  }
  throw errors.validation(found);
}

function describeIssue(key: string, issue: z.core.$ZodIssue): string {
  const field = key.split('.').pop() ?? key;
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return `The ${field} field is required.`;
  }
  return issue.message.startsWith('The ') ? issue.message : `The ${field} field: ${issue.message}`;
}
