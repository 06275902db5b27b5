import { z } from 'zod';
import { MESSENGERS, type Messenger } from '../infra/db/schema/contacts.js';
import { EMAIL_PATTERN } from './contactParams.js';
import { messengerId } from './messengers.js';

/**
 * One NDJSON line of `contact import` (docs/operations.md): a contact in the shape the API answers with, plus
 * `variables` as [{name, value, type}], `preview`, and `created_at` / `unsubscribed_at` as
 * given. A key left out of the line leaves the stored value alone on update; a key given as
 * null clears it.
 */
export interface ImportRecord {
  line: number;
  messenger: Messenger;
  /** the messenger ID as Postgres renders it (messenger_key); null for web contacts */
  key: string | null;
  /** contact columns given on the line, by column name */
  values: Record<string, string | boolean | string[] | null>;
  variables: { name: string; value: string | null; type: number }[];
}

/** Most variables one imported contact may carry. */
export const MAX_VARIABLES = 500;
const INT8_MAX = 9_223_372_036_854_775_807n;

const text = (max: number) =>
  z
    .string()
    .max(max, `must not be longer than ${max} characters`)
    .refine((s) => !s.includes('\0'), 'must not contain NUL characters');
const nullableText = (max: number) => text(max).nullable();
const isoTime = z
  .string()
  .regex(
    /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d(:?\d\d)?)$/,
    'must be an ISO 8601 time with a zone',
  )
  .refine((s) => !Number.isNaN(Date.parse(s)), 'must be a real time');
/** IDs as numbers or digit strings (Telegram IDs may not fit a double), canonical digits out. */
const bigId = (max: bigint) =>
  z
    .union([z.number().int().positive(), z.string().regex(/^\d{1,19}$/, 'must be digits')])
    .transform((v, ctx) => {
      const n = BigInt(v);
      if (n < 1n || n > max) {
        ctx.addIssue({ code: 'custom', message: 'is out of range' });
        return z.NEVER;
      }
      return n.toString();
    });
const safeId = bigId(BigInt(Number.MAX_SAFE_INTEGER));

const lineSchema = z.object({
  messenger: z.enum(MESSENGERS),
  // every ID key may be null: exported contacts carry `vk_user_id: null` (the contact shape)
  telegram_id: bigId(INT8_MAX).nullable().optional(),
  max_user_id: safeId.nullable().optional(),
  max_id: safeId.nullable().optional(),
  vk_user_id: safeId.nullable().optional(),
  vk_id: safeId.nullable().optional(),
  viber_id: text(255).min(1).nullable().optional(),
  name: text(255).optional(),
  phone: z
    .string()
    .regex(/^\+?\d{8,15}$/, 'must be 8 to 15 digits, optionally after +')
    .transform((s) => s.replace('+', ''))
    .nullable()
    .optional(),
  // the API's rule, so an imported contact could also have been written through the API
  email: z
    .email({ pattern: EMAIL_PATTERN, error: 'must be an email address' })
    .max(255)
    .nullable()
    .optional(),
  address: nullableText(255).optional(),
  avatar: nullableText(2048).optional(),
  telegram_username: nullableText(255).optional(),
  max_username: nullableText(255).optional(),
  tags: z.array(text(255)).max(100, 'must not have more than 100 items').optional(),
  preview: z.boolean().optional(),
  created_at: isoTime.optional(),
  unsubscribed_at: isoTime.nullable().optional(),
  utm: z.union([z.record(z.string(), z.string().nullable()), z.array(z.never()).max(0)]).optional(),
  variables: z
    .array(
      z.object({
        name: text(255).min(1),
        value: z
          .union([text(65_535), z.number(), z.boolean()])
          .nullable()
          .optional()
          .transform((v) => (v === undefined || v === null ? null : String(v))),
        type: z.number().int().min(0).max(4).optional(),
      }),
    )
    .max(MAX_VARIABLES, `must not have more than ${MAX_VARIABLES} items`)
    .optional(),
});

/** Columns copied as given when the line has them (the messenger's own ones added below). */
const PLAIN_COLUMNS = ['name', 'phone', 'email', 'address', 'avatar', 'preview'] as const;

/** Parses and checks one line; the error text names the failing keys. */
export function parseImportLine(
  line: number,
  raw: string,
): { record: ImportRecord } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    return { error: `invalid JSON (${(err as Error).message})` };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { error: 'a line must be a JSON object' };
  }
  const parsed = lineSchema.safeParse(json);
  if (!parsed.success) {
    return {
      error: parsed.error.issues
        .map((i) => `${i.path.join('.') || 'line'}: ${i.message}`)
        .join('; '),
    };
  }
  const c = parsed.data;
  const values: ImportRecord['values'] = {};
  for (const column of PLAIN_COLUMNS) if (c[column] !== undefined) values[column] = c[column];
  if (c.tags !== undefined) values.tags = [...new Set(c.tags.map((t) => t.trim()))].filter(Boolean);
  if (c.created_at !== undefined) values.created_at = c.created_at;
  if (c.unsubscribed_at !== undefined) values.unsubscribed_at = c.unsubscribed_at;

  let key: string | null = null;
  const id = messengerId(c.messenger);
  if (id) {
    const given = {
      ...c,
      max_user_id: c.max_user_id ?? c.max_id,
      vk_user_id: c.vk_user_id ?? c.vk_id,
    }[id.column];
    if (given === undefined || given === null)
      return { error: `${id.column}: is required for ${c.messenger} contacts` };
    key = given;
    values[id.column] = given;
    if (id.username && c[id.username] !== undefined) {
      values[id.username] = c[id.username]?.replace(/^@/, '') ?? null;
    }
  }
  return { record: { line, messenger: c.messenger, key, values, variables: variablesOf(c) } };
}

/** `variables`, plus `utm` entries not already among them; the last of a repeated name wins. */
function variablesOf(c: z.output<typeof lineSchema>): ImportRecord['variables'] {
  const byName = new Map<string, { name: string; value: string | null; type: number }>();
  if (c.utm && !Array.isArray(c.utm)) {
    for (const [name, value] of Object.entries(c.utm)) byName.set(name, { name, value, type: 0 });
  }
  for (const v of c.variables ?? [])
    byName.set(v.name, { name: v.name, value: v.value, type: v.type ?? 0 });
  return [...byName.values()];
}
