import { accept, ORDERED_OPERATORS, reject, type FieldType } from './fieldType.js';
import { dayOf, instantOf, isIsoUtc, parseDay, parseInstant } from './instant.js';
import { dateJson } from './jsonInSql.js';

/**
 * `date`: a UTC day. Accepted: `YYYY-MM-DD`, or a date-time (as for `datetime`) whose UTC
 * day is kept. Stored as `YYYY-MM-DD`; the slot holds midnight UTC; rendered as an
 * ISO 8601 UTC string at midnight (the list item shape: date values are UTC strings).
 */
export const dateType: FieldType = {
  name: 'date',
  slotFamily: 'time',
  parse(input) {
    const instant = typeof input === 'string' ? parseInstant(input) : undefined;
    return instant ? accept(dayOf(instant)) : reject('must be a date (YYYY-MM-DD)');
  },
  toSlot: (stored) => `${String(stored)}T00:00:00Z`,
  fromSlot: (slot) =>
    typeof slot === 'string' && isIsoUtc(slot) ? slot.slice(0, 10) : dayOf(instantOf(slot)),
  render: (stored) => `${String(stored)}T00:00:00.000Z`,
  json: dateJson,
  filter: {
    // getListItems: compared by UTC day; the compiler turns the day into a [day, next day) range.
    kind: 'date',
    operators: ORDERED_OPERATORS,
    operand(raw) {
      const day = typeof raw === 'string' ? parseDay(raw) : undefined;
      return day ? accept(dayOf(day)) : reject('must be a date (YYYY-MM-DD)');
    },
  },
};
