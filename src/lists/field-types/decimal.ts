/**
 * Exact decimal text for money (the list item shape: amounts in main units, never through
 * binary floating point). Values are kept as canonical decimal strings: no exponent,
 * no leading zeros, no trailing fractional zeros, no "-0".
 */
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;

export interface Decimal {
  negative: boolean;
  /** integer digits without leading zeros ("" for zero) */
  whole: string;
  /** fractional digits without trailing zeros */
  fraction: string;
}

export function parseDecimal(text: string): Decimal | undefined {
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const [, sign = '', intPart = '', fracPart = '', exp] = m;
  if (intPart === '' && fracPart === '') return undefined;
  let digits = intPart + fracPart;
  let point = intPart.length + (exp === undefined ? 0 : Number(exp));
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const whole = digits.slice(0, point).replace(/^0+/, '');
  const fraction = digits.slice(point).replace(/0+$/, '');
  const zero = whole === '' && fraction === '';
  return { negative: sign === '-' && !zero, whole, fraction };
}

export function formatDecimal(d: Decimal): string {
  const body = `${d.whole || '0'}${d.fraction ? `.${d.fraction}` : ''}`;
  return d.negative ? `-${body}` : body;
}

/** The decimal text of a JSON number or a numeric string; undefined when it is neither. */
export function decimalFrom(input: unknown): Decimal | undefined {
  if (typeof input === 'number')
    return Number.isFinite(input) ? parseDecimal(String(input)) : undefined;
  if (typeof input === 'string' && input.length <= 100) return parseDecimal(input);
  return undefined;
}
