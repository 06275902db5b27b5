import { sql, type SQL } from 'drizzle-orm';
import { listItems } from '../../infra/db/schema/listItems.js';
import { listValueBands } from '../../infra/db/schema/listValueBands.js';
import { rangeComparison, type Hiding } from '../filters/compile.js';
import { hasLinks, type ItemQuery } from '../filters/query.js';
import { listScope } from './listScope.js';

/** The slots whose values list_value_bands counts, by their number there (migration 0019). */
export const BANDED_SLOTS: Readonly<Record<string, number>> = { n1: 1, n2: 2, n3: 3, d1: 4, d2: 5 };

/**
 * The count of a query of one range on a number or date slot, from the counts kept per value
 * band (schema/listValueBands.ts): the records of every whole band on the bound's side, and
 * those of the bound's own band counted in the slot's index — about 90 bands a decade of
 * numbers, a day of dates, where counting the matches reads every one of them
 * (docs/records.md, "Counts kept per value band"). A band is named by its lowest value, so
 *
 * - below a bound (`<`, `<=`): the bands under the bound's band, plus the records from that
 *   band's lowest value up to the bound;
 * - above it (`>`, `>=`): the bands from the bound's band up, less the records from that
 *   band's lowest value up to the bound (the ones the condition leaves out).
 *
 * Undefined for any other query: it is counted as before. Only where the bands are kept
 * (Postgres and embedded; not on Citus: listRead.ts).
 */
export function bandedCount(query: ItemQuery, hiding: Hiding): SQL | undefined {
  const [condition, ...more] = query.conditions;
  if (!condition || more.length > 0 || hasLinks(query)) return undefined;
  const slot = condition.field.slot ? BANDED_SLOTS[condition.field.slot] : undefined;
  const range = slot === undefined ? undefined : rangeComparison(condition, hiding);
  if (slot === undefined || !range) return undefined;
  const { column, op, bound } = range;
  const dated = condition.kind === 'date' || condition.kind === 'datetime';
  // a band's name: a number band's lowest value; a day's first second since 1970
  const band = dated ? sql`list_day_band(${bound})` : sql`list_number_band(${bound})`;
  const lowest = dated ? sql`to_timestamp(${band}::float8)` : band;
  const scope = listScope(query.ownerId, query.listId, hiding === 'all');
  const below = op === '<' || op === '<=';
  const bands = sql`(select coalesce(sum(${sql.identifier('records')}), 0) from ${listValueBands}
    where ${scope} and ${sql.identifier('slot')} = ${sql.raw(String(slot))}
      and ${sql.identifier('band')} ${sql.raw(below ? '<' : '>=')} ${band})`;
  // above a bound, the band's records up to it: `<=` the bound for `>`, `<` it for `>=`
  const upTo = below ? op : op === '>' ? '<=' : '<';
  const inBand = sql`(select count(*) from ${listItems}
    where ${scope} and ${column} >= ${lowest} and ${column} ${sql.raw(upTo)} ${bound})`;
  return sql`select ${bands} ${sql.raw(below ? '+' : '-')} ${inBand} as n`;
}
