import { z } from 'zod';
import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import {
  BLANK_IS_UNSENT,
  BLANK_JSON_SCHEMAS,
  blankToUndefined,
  SCHEMA_RULES,
  sentJsonSchema,
  boolParam,
  oneOrMany,
} from '../../shared/paramTypes.js';
import { FIELD_TYPES } from '../field-types/fieldTypeRegistry.js';
import { isStorableText } from '../field-types/text.js';
import { CURRENCIES, DEFAULT_CURRENCY, isCurrency } from './currencies.js';
import { RESERVED_SLUGS, SLUG_PATTERN } from './reservedSlugs.js';

export type NewField = Omit<StoredField, 'slot'>;

/**
 * Where a field definition arrives: in `fields[]` of createListSchema (a money field
 * without currency gets USD, createListSchema) or as `field` of addListSchemaField (a money
 * field must name its currency, addListSchemaField).
 */
export type FieldMode = 'create' | 'add';

/** Runs a refinement even when sibling keys failed, so one 422 lists every field (the error rules). */
export const ALWAYS = { when: () => true };

export const flag = (fallback: boolean) =>
  z.preprocess(blankToUndefined, boolParam().default(fallback)).meta({ [BLANK_IS_UNSENT]: true });

export const requiredText = (max = 255) =>
  z
    .string({
      // A blank value counts as not sent: the text says which of the two it was.
      error: (issue) =>
        issue.input === undefined
          ? 'is required'
          : issue.input === null
            ? 'must not be blank'
            : 'must be a string',
    })
    .trim()
    // `\S`, not a minimum length: the document sees the text before it is trimmed
    .regex(/\S/, 'must not be blank')
    .max(max, `may not be greater than ${max} characters`)
    // Postgres text and jsonb cannot hold U+0000, and jsonb refuses an unpaired surrogate.
    .refine(isStorableText, 'must not contain NUL characters or unpaired surrogates');

export const slugParam = () =>
  z
    .string({ error: 'must be a string' })
    .regex(SLUG_PATTERN, 'may only contain letters, digits, dashes and underscores (1 to 255)')
    .refine((slug) => !RESERVED_SLUGS.has(slug), 'is a reserved name');

/** One field definition (createListSchema, addListSchemaField), parsed into what is stored. */
export function fieldDefinition(mode: FieldMode) {
  return z
    .object({
      name: requiredText(),
      slug: slugParam(),
      type: z.enum(FIELD_TYPES, { error: `must be one of ${FIELD_TYPES.join(', ')}` }),
      // Checked below against the type: only money fields have a currency.
      currency: z
        .unknown()
        .optional()
        .describe(
          mode === 'add'
            ? 'money fields: an ISO 4217 code, required; ignored for other types'
            : 'money fields: an ISO 4217 code, USD when left out; ignored for other types',
        ),
      is_required: flag(true),
      is_hidden: flag(false),
      is_encryptable: flag(false),
    })
    .superRefine((field, ctx) => {
      // Runs even when the value is not an object at all (ALWAYS): look before reading.
      if (typeof field !== 'object' || field === null || field.type !== 'money') return;
      const currency = blankToUndefined(field.currency);
      if (currency === undefined) {
        if (mode === 'add') {
          ctx.addIssue({ code: 'custom', path: ['currency'], message: 'is required for money' });
        }
        return;
      }
      if (!isCurrency(currency)) {
        ctx.addIssue({
          code: 'custom',
          path: ['currency'],
          message: 'must be an ISO 4217 currency code such as USD',
        });
      }
    }, ALWAYS)
    .meta({ [SCHEMA_RULES]: currencyRule(mode) })
    .transform((field): NewField => {
      const stored: NewField = {
        slug: field.slug,
        name: field.name,
        type: field.type,
        is_required: field.is_required,
        is_hidden: field.is_hidden,
        is_encryptable: field.is_encryptable,
      };
      // A currency sent with another type is ignored (docs/decisions.md).
      if (field.type === 'money') {
        stored.currency =
          (blankToUndefined(field.currency) as string | undefined) ?? DEFAULT_CURRENCY;
      }
      return stored;
    });
}

/**
 * The currency check above as JSON Schema, for the document: a money field's currency is an
 * ISO 4217 code (sent blank or not at all: USD when creating a list, refused when adding a
 * field); any other type's currency is ignored, whatever it is.
 */
function currencyRule(mode: FieldMode) {
  const code = { type: 'string', enum: [...CURRENCIES].sort() };
  return {
    if: { properties: { type: { const: 'money' } }, required: ['type'] },
    then:
      mode === 'add'
        ? { ...sentJsonSchema('currency'), properties: { currency: code } }
        : { properties: { currency: { anyOf: [code, ...BLANK_JSON_SCHEMAS] } } },
  };
}

/** createListSchema's `fields`: 1 to 30 definitions, in order, slugs unique. */
export function fieldList() {
  return oneOrMany(fieldArray(), { objectItems: true });
}

function fieldArray() {
  return z
    .array(fieldDefinition('create'), { error: 'must be an array of field definitions' })
    .min(1, 'must have at least 1 item')
    .max(30, 'may not have more than 30 items')
    .superRefine((fields, ctx) => {
      if (!Array.isArray(fields)) return;
      const seen = new Set<string>();
      fields.forEach((field: unknown, i) => {
        const slug = (field as { slug?: unknown } | null)?.slug;
        if (typeof slug !== 'string') return;
        if (seen.has(slug)) {
          ctx.addIssue({ code: 'custom', path: [i, 'slug'], message: 'has a duplicate value' });
        }
        seen.add(slug);
      });
    }, ALWAYS);
}
