import { sql, type SQL } from 'drizzle-orm';
import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import type { SqlKind } from '../field-types/fieldType.js';
import { isSlotColumn } from '../slots.js';

/**
 * JSONB fallbacks for fields without a slot (correct, but not indexed). The slug is a bound
 * parameter (`data ->> $n`), never part of the SQL text. Values were validated and
 * normalised on write, so these casts cannot fail on stored data.
 */
const FROM_JSON: Record<SqlKind, (text: SQL) => SQL> = {
  text: (text) => text,
  numeric: (text) => sql`(${text})::numeric`,
  bool: (text) => sql`((${text})::boolean)::int`,
  // dates are stored as YYYY-MM-DD; the explicit zone keeps the cast independent of TimeZone
  date: (text) => sql`((${text}) || 'T00:00:00Z')::timestamptz`,
  datetime: (text) => sql`(${text})::timestamptz`,
};

/** The SQL expression holding a field's comparable value: its slot column, or JSONB. */
export function fieldExpression(field: StoredField, kind: SqlKind): SQL {
  if (isSlotColumn(field.slot)) return sql`${sql.identifier(field.slot)}`;
  return FROM_JSON[kind](sql`(${sql.identifier('data')} ->> ${field.slug})`);
}

/** A bound operand typed like the expression it is compared with. */
export function operandParameter(field: StoredField, kind: SqlKind, value: string): SQL {
  if (kind === 'text') return sql`${value}`;
  if (kind === 'date' || kind === 'datetime') return sql`${value}::timestamptz`;
  // contact_id / bot_id are bigint: a numeric parameter would keep their index out of use.
  if (field.slot === 'contact_id' || field.slot === 'bot_id') return sql`${value}::bigint`;
  return sql`${value}::numeric`;
}
