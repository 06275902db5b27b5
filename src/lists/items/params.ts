import { z } from 'zod';
import { intParam } from '../../shared/paramTypes.js';

/** A GET/form field sent empty (`limit=`) means "not given", as Laravel reads it. */
const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

export const optionalInt = (min: number, max: number, message: string) =>
  z.preprocess(
    blankToUndefined,
    intParam()
      .refine((n) => n >= min && n <= max, message)
      .optional(),
  );

/**
 * `data`: an object of slug → value. qs turns `data[0]=…` into an array (and a PHP client
 * sends `[]` for an empty map), so arrays are read as index-keyed objects.
 */
export const dataParam = () =>
  z.preprocess(
    (v) => (Array.isArray(v) ? Object.fromEntries(v.map((x, i) => [String(i), x])) : v),
    z.record(z.string(), z.unknown(), { error: 'must be an object' }),
  );
