import { sql, type SQL } from 'drizzle-orm';
import { CONTACT_KEYS, jsonObjectSql, VARIABLE_KEYS } from './contactShape.js';

/**
 * A contact rendered as JSON text by Postgres, byte for byte what
 * `JSON.stringify(presentContact(row))` writes: both are built from contactShape.ts, and a
 * test compares them on every messenger and awkward text. A listing page of 1000 contacts
 * is then one text column per row: no row objects, presenting or serializing in Node, which
 * would otherwise be most of an export's time (docs/benchmarks.md, scenario g).
 */
const contactJson = jsonObjectSql(CONTACT_KEYS);
const variableJson = jsonObjectSql(VARIABLE_KEYS);

/** `utm_*` variables as name → value. */
const utmEntry = sql`to_json(v.name)::text || ':' || coalesce(to_json(v.value)::text, 'null')`;

/**
 * `id` and `json` of `ownerId`'s contacts whose ids `ids` selects, in ascending id: each
 * contact joined to its variables and aggregated in one pass. Every plan of this is linear
 * in the contacts: the variables are reached by their `(owner_id, contact_id)` index.
 * Aggregating the variables first and joining the aggregate is not: on tables without
 * statistics (a fresh account, an import's own uncommitted rows) Postgres may plan it as a
 * nested loop that aggregates every variable again for each contact (docs/contacts.md).
 */
export function contactsAsJson(ownerId: number, ids: SQL): SQL {
  return sql`WITH ids AS (${ids})
    SELECT c.id, ${contactJson} AS json
    FROM (
      SELECT c.*,
             string_agg(${variableJson}, ',' ORDER BY v.id) AS variables_list,
             string_agg(${utmEntry}, ',' ORDER BY v.id) FILTER (WHERE left(v.name, 4) = 'utm_') AS variables_utm
      FROM contacts c
      LEFT JOIN contact_variables v ON v.owner_id = c.owner_id AND v.contact_id = c.id
      -- = ANY(ARRAY(…)) keeps the fetch an index scan on the primary key; a plain join may be
      -- planned as a hash join over a sequential scan of every contact.
      WHERE c.owner_id = ${ownerId} AND c.id = ANY(ARRAY(SELECT id FROM ids))
      GROUP BY c.id, c.owner_id
    ) c
    ORDER BY c.id`;
}
