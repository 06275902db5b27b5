import type { Operator } from '../field-types/fieldType.js';
import { ALL_OPERATORS } from '../field-types/fieldType.js';

/**
 * getListItems: an operator is recognised only when the text before the first comma is
 * one of the table's; otherwise the whole string is the value. `=,<value>` escapes a value
 * that itself starts with an operator and a comma.
 */
export function splitOperator(text: string): { op: Operator; operand: string } {
  const comma = text.indexOf(',');
  if (comma >= 0) {
    const head = text.slice(0, comma);
    if ((ALL_OPERATORS as readonly string[]).includes(head))
      return { op: head as Operator, operand: text.slice(comma + 1) };
  }
  return { op: '=', operand: text };
}

export const MAX_PATTERN_CHARS = 255;
export const MAX_PATTERN_WILDCARDS = 10;

/**
 * getListItems: a pattern has at most 255 characters and at most 10 `%`, consecutive
 * `%` counting as one. Runs of `%` mean the same as one, so they are collapsed.
 */
export function checkPattern(
  pattern: string,
): { ok: true; pattern: string } | { ok: false; message: string } {
  if ([...pattern].length > MAX_PATTERN_CHARS)
    return { ok: false, message: `pattern may not be longer than ${MAX_PATTERN_CHARS} characters` };
  const collapsed = pattern.replace(/%+/g, '%');
  const wildcards = collapsed.split('%').length - 1;
  if (wildcards > MAX_PATTERN_WILDCARDS)
    return { ok: false, message: `pattern may have at most ${MAX_PATTERN_WILDCARDS} % signs` };
  return { ok: true, pattern: collapsed };
}
