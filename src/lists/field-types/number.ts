import { accept, ORDERED_OPERATORS, reject, type FieldType, type Parsed } from './fieldType.js';
import { numberJson } from './jsonInSql.js';

const NUMERIC_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * `number` values are IEEE doubles (JSON numbers). Accepted: a finite JSON number or a
 * numeric string ("12", "-0.5", "1e3"). The slot holds the double's shortest decimal
 * text, so numeric order in SQL is the doubles' order.
 */
export function parseNumber(input: unknown): Parsed<number> {
  let n: number;
  if (typeof input === 'number') n = input;
  else if (typeof input === 'string' && input.length <= 400 && NUMERIC_TEXT.test(input))
    n = Number(input);
  else return reject('must be a number');
  if (!Number.isFinite(n)) return reject('is out of range');
  return accept(n === 0 ? 0 : n);
}

export const numberType: FieldType = {
  name: 'number',
  slotFamily: 'numeric',
  parse: (input) => parseNumber(input),
  toSlot: (stored) => String(stored),
  // the slot holds the double's shortest text, so the same double comes back
  fromSlot: (slot) => Number(slot),
  render: (stored) => stored,
  json: numberJson,
  filter: {
    kind: 'numeric',
    operators: ORDERED_OPERATORS,
    operand(raw) {
      const n = parseNumber(raw);
      return n.ok ? accept(String(n.value)) : n;
    },
  },
};
