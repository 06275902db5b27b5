import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { MESSENGERS, type Messenger } from '../infra/db/schema/contacts.js';

/**
 * The contact every method answers with, written once: each key in answer order, with how
 * JavaScript reads it from a stored contact (presenter.ts), how Postgres renders it as JSON
 * text for listings (contactJson.ts) and how the OpenAPI document describes it. A test
 * compares the two renderings byte for byte on every messenger.
 */

/** A contact as the repository reads it (snake_case, as selected in `contactColumns`). */
export interface StoredContact {
  id: number;
  bot_id: number;
  messenger: Messenger;
  /** read as text: Telegram IDs are rendered as strings */
  telegram_id: string | null;
  max_user_id: number | null;
  vk_user_id: number | null;
  viber_id: string | null;
  telegram_username: string | null;
  max_username: string | null;
  phone: string | null;
  email: string | null;
  name: string;
  address: string | null;
  avatar: string | null;
  tags: string[];
  /** ISO 8601 UTC, formatted by the query */
  created_at: string;
  unsubscribed_at: string | null;
  variables: StoredVariable[];
}

export interface StoredVariable {
  id: number;
  name: string;
  value: string | null;
  type: number;
  schema_id: number | null;
  deletable: boolean;
  payload: unknown;
}

interface Key<Row> {
  name: string;
  /** shown only on this messenger's contacts */
  only?: Messenger;
  js: (row: Row) => unknown;
  /**
   * JSON text of the value; `c` is the contact row with its variables aggregated as
   * `variables_list` and `variables_utm` (contactJson.ts), `v` the variable row
   */
  sql: SQL;
  doc: z.ZodType;
}

// JSON text pieces: strings go through to_json, whose escapes are JSON.stringify's.
const text = (value: SQL) => sql`coalesce(to_json(${value})::text, 'null')`;
const number = (value: SQL) => sql`coalesce((${value})::text, 'null')`;
const isoUtc = (column: SQL) =>
  sql`coalesce('"' || to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`;

/** A variable of a contact; `schema_id`, `deletable` and `payload` are internal. */
export const VARIABLE_KEYS: readonly Key<StoredVariable>[] = [
  {
    name: 'id',
    js: (v) => v.id,
    sql: sql`v.id::text`,
    doc: z.number().describe('Variable ID within the contact'),
  },
  { name: 'name', js: (v) => v.name, sql: text(sql`v.name`), doc: z.string() },
  {
    name: 'value',
    js: (v) => v.value,
    sql: text(sql`v.value`),
    doc: z.string().nullable().describe('For media types a link to the file'),
  },
  {
    name: 'type',
    js: (v) => v.type,
    sql: sql`v.type::text`,
    doc: z
      .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)])
      .describe('0 text, 1 image, 2 document, 3 audio, 4 video'),
  },
  {
    name: 'schema_id',
    js: (v) => v.schema_id,
    sql: number(sql`v.schema_id`),
    doc: z.unknown().optional(),
  },
  {
    name: 'deletable',
    js: (v) => v.deletable,
    sql: sql`v.deletable::text`,
    doc: z.unknown().optional(),
  },
  // Internal and never written by the API: rendered as Postgres stores it.
  {
    name: 'payload',
    js: (v) => v.payload,
    sql: sql`coalesce(v.payload::text, 'null')`,
    doc: z.unknown().optional(),
  },
];

/** A variable's shape for the OpenAPI document; one object, so the document names it once. */
export const variableDoc = z.looseObject(docShape(VARIABLE_KEYS));

/** The `utm_*` variables as name → value, and `[]` (not `{}`) when there are none. */
function utmOf(variables: StoredVariable[]): Record<string, string | null> | [] {
  const utm = variables.filter((v) => v.name.startsWith('utm_'));
  if (utm.length === 0) return [];
  return Object.fromEntries(utm.map((v) => [v.name, v.value]));
}

export const CONTACT_KEYS: readonly Key<StoredContact>[] = [
  { name: 'id', js: (c) => c.id, sql: sql`c.id::text`, doc: z.number() },
  { name: 'bot_id', js: (c) => c.bot_id, sql: sql`c.bot_id::text`, doc: z.number() },
  {
    name: 'phone',
    js: (c) => c.phone,
    sql: text(sql`c.phone`),
    doc: z.string().nullable().describe('Digits only, no `+`'),
  },
  { name: 'email', js: (c) => c.email, sql: text(sql`c.email`), doc: z.string().nullable() },
  { name: 'name', js: (c) => c.name, sql: text(sql`c.name`), doc: z.string() },
  { name: 'address', js: (c) => c.address, sql: text(sql`c.address`), doc: z.string().nullable() },
  {
    name: 'messenger',
    js: (c) => c.messenger,
    sql: text(sql`c.messenger`),
    doc: z.enum(MESSENGERS),
  },
  {
    name: 'utm',
    js: (c) => utmOf(c.variables),
    sql: sql`coalesce('{' || c.variables_utm || '}', '[]')`,
    doc: z
      .union([z.record(z.string(), z.string().nullable()), z.array(z.never()).max(0)])
      .describe('Variables whose names start with `utm_`; an empty array `[]` when there are none'),
  },
  { name: 'avatar', js: (c) => c.avatar, sql: text(sql`c.avatar`), doc: z.string().nullable() },
  {
    name: 'telegram_id',
    only: 'telegram',
    js: (c) => c.telegram_id,
    sql: text(sql`c.telegram_id::text`),
    doc: z.string().optional().describe('Telegram contacts only'),
  },
  {
    name: 'telegram_username',
    only: 'telegram',
    js: (c) => c.telegram_username,
    sql: text(sql`c.telegram_username`),
    doc: z.string().nullable().optional().describe('Without `@`; Telegram only'),
  },
  {
    name: 'max_user_id',
    only: 'max',
    js: (c) => c.max_user_id,
    sql: number(sql`c.max_user_id`),
    doc: z.number().optional().describe('`max` contacts only'),
  },
  {
    name: 'max_username',
    only: 'max',
    js: (c) => c.max_username,
    sql: text(sql`c.max_username`),
    doc: z.string().nullable().optional().describe('`max` contacts only'),
  },
  {
    // On every contact, null unless the contact is a VK one.
    name: 'vk_user_id',
    js: (c) => (c.messenger === 'vk' ? c.vk_user_id : null),
    sql: sql`CASE WHEN c.messenger = 'vk' THEN ${number(sql`c.vk_user_id`)} ELSE 'null' END`,
    doc: z.number().nullable().describe('Null for non-`vk` contacts'),
  },
  {
    name: 'viber_id',
    only: 'viber',
    js: (c) => c.viber_id,
    sql: text(sql`c.viber_id`),
    doc: z.string().optional().describe('`viber` contacts only'),
  },
  {
    name: 'created_at',
    js: (c) => c.created_at,
    sql: isoUtc(sql`c.created_at`),
    doc: z.iso.datetime(),
  },
  {
    name: 'unsubscribed_at',
    js: (c) => c.unsubscribed_at,
    sql: isoUtc(sql`c.unsubscribed_at`),
    doc: z.iso.datetime().nullable().describe('Null means subscribed'),
  },
  {
    name: 'tags',
    js: (c) => c.tags,
    sql: sql`array_to_json(c.tags)::text`,
    doc: z.array(z.string()),
  },
  {
    name: 'variables',
    js: (c) => c.variables.map((v) => presentKeys(VARIABLE_KEYS, v)),
    sql: sql`coalesce('[' || c.variables_list || ']', '[]')`,
    doc: z.array(variableDoc),
  },
];

/** An object of `keys` in their order, each key shown unless it belongs to another messenger. */
export function presentKeys<Row>(
  keys: readonly Key<Row>[],
  row: Row,
  messenger?: Messenger,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    if (key.only === undefined || key.only === messenger) out[key.name] = key.js(row);
  }
  return out;
}

/** The zod shape of `keys`, for the OpenAPI document. */
export function docShape<Row>(keys: readonly Key<Row>[]): Record<string, z.ZodType> {
  return Object.fromEntries(keys.map((k) => [k.name, k.doc]));
}

/**
 * `keys` as one SQL expression of JSON text: `{"a":…,"b":…}`. Key names are this file's
 * constants, so they are written into the SQL as literals; a key of one messenger is
 * written only when `c.messenger` is that messenger.
 */
export function jsonObjectSql<Row>(keys: readonly Key<Row>[]): SQL {
  const pieces = keys.map((key, i) => {
    const keyed = sql`${sql.raw(`'${i === 0 ? '{' : ','}"${key.name}":'`)} || ${key.sql}`;
    return key.only
      ? sql`CASE WHEN c.messenger = ${sql.raw(`'${key.only}'`)} THEN ${keyed} ELSE '' END`
      : keyed;
  });
  return sql`${sql.join(pieces, sql` || `)} || '}'`;
}
