import { sql, type SQL } from 'drizzle-orm';
import { CONTACT_KEYS, jsonObjectSql, VARIABLE_KEYS } from './contactShape.js';

/**
 * A contact rendered as JSON text by Postgres, byte for byte what
 * `JSON.stringify(presentContact(row))` writes: both are built from contactShape.ts, and a
 * test compares them on every messenger and awkward text. A listing page of 1000 contacts
 * is then one text column per row: no row objects, presenting or serializing in Node,
 * which took two thirds of an export's time (docs/benchmarks.md, scenario g).
 */
const contactJson = jsonObjectSql(CONTACT_KEYS);
const variableJson = jsonObjectSql(VARIABLE_KEYS);

/** `utm_*` variables as name → value. */
const utmEntry = sql`to_json(v.name)::text || ':' || coalesce(to_json(v.value)::text, 'null')`;

/**
 * `id` and `json` of `ownerId`'s contacts whose ids `ids` selects, in ascending id. The variables of
 * all of them are read in one index scan and aggregated per contact (one subquery per
 * contact cost Postgres twice as much).
 */
export function contactsAsJson(ownerId: number, ids: SQL): SQL {
  return sql`WITH ids AS (${ids}),
    cv AS (
      SELECT v.contact_id,
             string_agg(${variableJson}, ',' ORDER BY v.id) AS list,
             string_agg(${utmEntry}, ',' ORDER BY v.id) FILTER (WHERE left(v.name, 4) = 'utm_') AS utm
      FROM contact_variables v
      WHERE v.owner_id = ${ownerId} AND v.contact_id = ANY(ARRAY(SELECT id FROM ids))
      GROUP BY v.contact_id)
    SELECT c.id, ${contactJson} AS json
    FROM contacts c LEFT JOIN cv ON cv.contact_id = c.id
    -- = ANY(ARRAY(…)) keeps the fetch an index scan on the primary key; a plain join may be
    -- planned as a hash join over a sequential scan of every contact.
    WHERE c.owner_id = ${ownerId} AND c.id = ANY(ARRAY(SELECT id FROM ids))
    ORDER BY c.id`;
}
