import { z } from 'zod';
import { ARRAY_AS_INDEXED } from '../../shared/paramTypes.js';

/**
 * `data`: an object of slug → value. qs turns `data[0]=…` into an array (and a PHP client
 * sends `[]` for an empty map), so arrays are read as index-keyed objects.
 */
export const dataParam = () =>
  z
    .preprocess(
      (v) => (Array.isArray(v) ? Object.fromEntries(v.map((x, i) => [String(i), x])) : v),
      z.record(z.string(), z.unknown(), { error: 'must be an object' }),
    )
    .meta({ [ARRAY_AS_INDEXED]: true });
