import { decimalFrom, formatDecimal } from './decimal.js';
import { accept, ORDERED_OPERATORS, reject, type FieldType } from './fieldType.js';
import { moneyJson } from './jsonInSql.js';

/** ISO 4217 minor units that are not 2; every other code has cents. */
const MINOR_UNITS: Record<string, number> = {
  BHD: 3,
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  IQD: 3,
  ISK: 0,
  JOD: 3,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  PYG: 0,
  RWF: 0,
  TND: 3,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
};

/** 15 significant digits always survive the double that JSON output goes through. */
const MAX_DIGITS = 15;

/**
 * `money`: an amount in main units (the list item shape), exact. Accepted: a JSON number or a numeric
 * string, with at most the currency's minor-unit decimals and 15 digits in all. Stored as
 * a canonical decimal string (the numeric slot compares it exactly); rendered as a JSON
 * number, which is exact for 15 digits.
 */
export const moneyType: FieldType = {
  name: 'money',
  slotFamily: 'numeric',
  parse(input, field) {
    const d = decimalFrom(input);
    if (!d) return reject('must be an amount of money');
    const decimals = MINOR_UNITS[field.currency ?? 'USD'] ?? 2;
    if (d.fraction.length > decimals) return reject(`may have at most ${decimals} decimal places`);
    if (d.whole.length + d.fraction.length > MAX_DIGITS)
      return reject(`may have at most ${MAX_DIGITS} digits`);
    return accept(formatDecimal(d));
  },
  toSlot: (stored) => String(stored),
  // numeric keeps the canonical text as written; JSON gives a number of at most 15 digits,
  // whose shortest text is that same canonical text
  fromSlot: (slot) => String(slot),
  render: (stored) => Number(stored),
  json: moneyJson,
  filter: {
    kind: 'numeric',
    operators: ORDERED_OPERATORS,
    operand(raw) {
      const d = typeof raw === 'boolean' ? undefined : decimalFrom(raw);
      if (!d || d.whole.length > 1000 || d.fraction.length > 1000)
        return reject('must be an amount of money');
      return accept(formatDecimal(d));
    },
  },
};
