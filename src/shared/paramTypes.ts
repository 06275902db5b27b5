import { z } from 'zod';

/**
 * Parameter types shared by the methods. GET and form values arrive as text, so integers
 * and booleans are also accepted in their text forms ("2", "true", "1").
 */
const INTEGER_TEXT = /^-?\d{1,16}$/;

export const intParam = () =>
  z.preprocess(
    (v) => (typeof v === 'string' && INTEGER_TEXT.test(v.trim()) ? Number(v.trim()) : v),
    z.number({ error: 'must be an integer' }).int('must be an integer').safe('is out of range'),
  );

const TRUE_FORMS = new Set<unknown>([true, 'true', '1', 1]);
const FALSE_FORMS = new Set<unknown>([false, 'false', '0', 0]);

export const boolParam = () =>
  z.preprocess(
    (v) => (TRUE_FORMS.has(v) ? true : FALSE_FORMS.has(v) ? false : v),
    z.boolean({ error: 'must be true or false' }),
  );

/** A required identifier given as text (list and record ids). */
export const idParam = () =>
  z.string({ error: 'must be a string' }).min(1, 'is required').max(255, 'is too long');

export const textParam = (max = 255) =>
  z.string({ error: 'must be a string' }).max(max, `may not be greater than ${max} characters`);
