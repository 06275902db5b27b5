import { sql, type SQL } from 'drizzle-orm';
import type { Messenger } from '../infra/db/schema/contacts.js';

/**
 * A contact of spec 2.4 rendered as JSON text by Postgres, byte for byte what
 * `JSON.stringify(presentContact(row))` writes (presenter.ts is the reference; a test
 * compares the two on every messenger and awkward text). A listing page of 1000 contacts
 * is then one text column per row: no row objects, presenting or serializing in Node,
 * which took two thirds of an export's time (docs/benchmarks.md, scenario g).
 *
 * Strings go through to_json, whose escapes are JSON.stringify's. `payload` (internal, never
 * written by the API) is rendered as Postgres stores it.
 */
const text = (value: SQL) => sql`coalesce(to_json(${value})::text, 'null')`;
const number = (value: SQL) => sql`coalesce((${value})::text, 'null')`;
const isoUtc = (column: SQL) =>
  sql`coalesce('"' || to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`;

type Key = readonly [name: string, value: SQL, only?: Messenger];

const variable = sql`'{"id":' || v.id::text || ',"name":' || to_json(v.name)::text
  || ',"value":' || ${text(sql`v.value`)} || ',"type":' || v.type::text
  || ',"schema_id":' || ${number(sql`v.schema_id`)} || ',"deletable":' || v.deletable::text
  || ',"payload":' || coalesce(v.payload::text, 'null') || '}'`;

/** Spec 2.4: utm_* variables as name → value. */
const utmEntry = sql`to_json(v.name)::text || ':' || ${text(sql`v.value`)}`;

/** The keys of spec 2.4 in order; a key with a messenger is on that messenger's contacts only. */
const KEYS: readonly Key[] = [
  ['bot_id', sql`c.bot_id::text`],
  ['phone', text(sql`c.phone`)],
  ['email', text(sql`c.email`)],
  ['name', text(sql`c.name`)],
  ['address', text(sql`c.address`)],
  ['messenger', text(sql`c.messenger`)],
  ['utm', sql`coalesce('{' || cv.utm || '}', '[]')`],
  ['avatar', text(sql`c.avatar`)],
  ['telegram_id', text(sql`c.telegram_id::text`), 'telegram'],
  ['telegram_username', text(sql`c.telegram_username`), 'telegram'],
  ['max_user_id', number(sql`c.max_user_id`), 'max'],
  ['max_username', text(sql`c.max_username`), 'max'],
  [
    'vk_user_id',
    sql`CASE WHEN c.messenger = 'vk' THEN ${number(sql`c.vk_user_id`)} ELSE 'null' END`,
  ],
  ['viber_id', text(sql`c.viber_id`), 'viber'],
  ['created_at', isoUtc(sql`c.created_at`)],
  ['unsubscribed_at', isoUtc(sql`c.unsubscribed_at`)],
  ['tags', sql`array_to_json(c.tags)::text`],
  ['variables', sql`coalesce('[' || cv.list || ']', '[]')`],
];

// Key names are this file's constants, so they are written into the SQL as literals.
const pieces = KEYS.map(([name, value, only]) => {
  const keyed = sql`${sql.raw(`',"${name}":'`)} || ${value}`;
  return only
    ? sql`CASE WHEN c.messenger = ${sql.raw(`'${only}'`)} THEN ${keyed} ELSE '' END`
    : keyed;
});

const contactJson = sql`'{"id":' || c.id::text || ${sql.join(pieces, sql` || `)} || '}'`;

/**
 * `id` and `json` of the contacts whose ids `ids` selects, in ascending id. The variables of
 * all of them are read in one index scan and aggregated per contact (one subquery per
 * contact cost Postgres twice as much).
 */
export function contactsAsJson(ids: SQL): SQL {
  return sql`WITH ids AS (${ids}),
    cv AS (
      SELECT v.contact_id,
             string_agg(${variable}, ',' ORDER BY v.id) AS list,
             string_agg(${utmEntry}, ',' ORDER BY v.id) FILTER (WHERE left(v.name, 4) = 'utm_') AS utm
      FROM contact_variables v
      WHERE v.contact_id = ANY(ARRAY(SELECT id FROM ids))
      GROUP BY v.contact_id)
    SELECT c.id, ${contactJson} AS json
    FROM contacts c LEFT JOIN cv ON cv.contact_id = c.id
    -- = ANY(ARRAY(…)) keeps the fetch an index scan on the primary key; a plain join may be
    -- planned as a hash join over a sequential scan of every contact.
    WHERE c.id = ANY(ARRAY(SELECT id FROM ids))
    ORDER BY c.id`;
}
