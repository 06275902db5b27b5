import { z } from 'zod';
import { indexKeyed } from '../../shared/indexedArrays.js';
import { ARRAY_AS_INDEXED } from '../../shared/paramTypes.js';

/**
 * `data`: an object of slug → value. qs turns `data[0]=…` into an array (and a PHP client
 * sends `[]` for an empty map), so arrays are read as index-keyed objects.
 */
export const dataParam = () =>
  z
    .preprocess(
      (v) => (Array.isArray(v) ? indexKeyed(v) : v),
      z.record(z.string(), z.unknown(), { error: 'must be an object' }),
    )
    .meta({ [ARRAY_AS_INDEXED]: true });
