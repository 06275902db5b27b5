import { z } from 'zod';
import {
  BLANK_IS_UNSENT,
  blankToUndefined,
  intParam,
  optionalInt,
  SINGLE_AS_ARRAY,
} from '../shared/paramTypes.js';

/**
 * Parameter pieces of the contact methods. Blank values follow the one rule of every
 * method (shared/paramTypes.ts: null or whitespace-only text is "not sent"); contact text
 * is also kept trimmed, as Laravel's TrimStrings does.
 */
export function trimmedOrUnsent(v: unknown): unknown {
  const sent = blankToUndefined(v);
  return typeof sent === 'string' ? sent.trim() : sent;
}

/** Largest Unix time accepted in date windows: 9999-12-31T23:59:59Z. */
export const MAX_UNIX_SECONDS = 253_402_300_799;

const betweenMessage = (field: string, min: number, max: number) =>
  `The ${field} field must be between ${min} and ${max}.`;

export const boundedInt = (field: string, min: number, max: number) =>
  intParam({ min, max, message: betweenMessage(field, min, max) });

export const optionalBoundedInt = (field: string, min: number, max: number) =>
  optionalInt(min, max, betweenMessage(field, min, max));

/** getContacts: `bot_id`, `date_from`, `date_to`, shared by getContacts and getNumberOfContacts. */
export const contactFilterParams = {
  // Any integer: a bot that is not the caller's simply matches nothing (getContacts).
  bot_id: optionalBoundedInt('bot_id', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
  date_from: optionalBoundedInt('date_from', 0, MAX_UNIX_SECONDS),
  date_to: optionalBoundedInt('date_to', 0, MAX_UNIX_SECONDS),
};

export interface ContactFilters {
  botId?: number;
  /** inclusive Unix seconds */
  dateFrom?: number;
  /** inclusive Unix seconds: the whole second counts */
  dateTo?: number;
}

export function toFilters(p: { bot_id?: number; date_from?: number; date_to?: number }) {
  const filters: ContactFilters = {};
  if (p.bot_id !== undefined) filters.botId = p.bot_id;
  if (p.date_from !== undefined) filters.dateFrom = p.date_from;
  if (p.date_to !== undefined) filters.dateTo = p.date_to;
  return filters;
}

/** Text of at most `max` characters; NUL is refused (Postgres text cannot hold it). */
export const textOf = (field: string, max = 255) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? `The ${field} field is required and must not be blank.`
          : `The ${field} field must be a string.`,
    })
    .max(max, `The ${field} field must not be greater than ${max} characters.`)
    .regex(/^[^\0]*$/, `The ${field} field must not contain NUL characters.`);

/** Text that must be sent and not blank (blank counts as not sent, the one blank rule). */
export const requiredTextOf = (field: string, max = 255) =>
  z.preprocess(
    trimmedOrUnsent,
    textOf(field, max).regex(/\S/, `The ${field} field is required and must not be blank.`),
  );

export const optionalText = (field: string, max = 255) =>
  z.preprocess(trimmedOrUnsent, textOf(field, max).optional()).meta({ [BLANK_IS_UNSENT]: true });

/** createOrUpdateContact: `+` then digits, 9 to 16 characters with the `+`; kept without it. */
export const PHONE_PATTERN = /^\+\d{8,15}$/;

export const phoneParam = () =>
  z
    .preprocess(
      trimmedOrUnsent,
      z
        .string({ error: 'The phone field must be a string.' })
        .regex(PHONE_PATTERN, 'The phone field must be + followed by 8 to 15 digits.')
        .transform((s) => s.slice(1))
        .optional(),
    )
    .meta({ [BLANK_IS_UNSENT]: true });

/**
 * RFC 5322's dot-atom before the `@` (so `a/b@`, `a$b@`, `a~b@` are addresses), a dotted host
 * name ending in letters after it. Narrower than `format: email` (RFC 5321 also has quoted
 * local parts and address literals, which contact lists never see): the document states it
 * as the pattern (docs/contacts.md).
 */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export const emailParam = () =>
  z
    .preprocess(
      trimmedOrUnsent,
      z
        .email({ pattern: EMAIL_PATTERN, error: 'The email field must be a valid email address.' })
        .max(255, 'The email field must not be greater than 255 characters.')
        .optional(),
    )
    .meta({ [BLANK_IS_UNSENT]: true });

/** createOrUpdateContact: up to 100 tags of up to 255 characters; blank tags dropped, repeats once. */
export const tagsParam = () =>
  z
    .preprocess(
      cleanTags,
      z
        .array(
          z
            .string({ error: 'The tags field must contain only strings.' })
            .max(255, 'The tags field must not contain a tag longer than 255 characters.')
            .refine((s) => !s.includes('\0'), 'The tags field must not contain NUL characters.'),
          { error: 'The tags field must be an array.' },
        )
        // a refine, not .max(): zod's array size check would stop the other fields' checks
        .refine((tags) => tags.length <= 100, 'The tags field must not have more than 100 items.')
        .optional(),
    )
    .meta({ [SINGLE_AS_ARRAY]: true });

/**
 * Cleaned before validation (a transform after a failed check would stop zod from
 * reporting the other fields). Empty text clears: a form or query string has no way to
 * send an empty array.
 */
function cleanTags(v: unknown): unknown {
  if (v === '') return [];
  if (v === null) return undefined;
  // `tags=vip` in a query string or form is one tag, as `tags[]=vip` is
  if (typeof v === 'string') v = [v];
  if (!Array.isArray(v) || !v.every((t) => typeof t === 'string')) return v;
  return [...new Set(v.map((t: string) => t.trim()).filter((t) => t !== ''))];
}
