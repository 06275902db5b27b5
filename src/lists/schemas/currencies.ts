/**
 * ISO 4217 codes accepted for `money` fields (the field shape): every currency the runtime's
 * ICU data knows. Codes are upper case, as the standard writes them; `usd` is refused.
 */
export const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** createListSchema: a money field created without a currency is in US dollars. */
export const DEFAULT_CURRENCY = 'USD';

export function isCurrency(value: unknown): value is string {
  return typeof value === 'string' && CURRENCIES.has(value);
}
