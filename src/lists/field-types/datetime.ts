import { accept, ORDERED_OPERATORS, reject, type FieldType } from './fieldType.js';
import { instantOf, isIsoUtc, parseInstant } from './instant.js';
import { datetimeJson } from './jsonInSql.js';

const MESSAGE = 'must be a date and time (YYYY-MM-DD HH:MM, or ISO 8601 with an offset)';

/**
 * `datetime`: an instant, to the millisecond. Accepted: `YYYY-MM-DD HH:MM[:SS]`, ISO 8601
 * with or without an offset (none means UTC), or a bare date (midnight UTC). Stored and
 * rendered as ISO 8601 UTC (`2024-05-01T10:20:00.000Z`).
 */
export const datetimeType: FieldType = {
  name: 'datetime',
  slotFamily: 'time',
  parse(input) {
    const instant = typeof input === 'string' ? parseInstant(input) : undefined;
    return instant ? accept(instant.toISOString()) : reject(MESSAGE);
  },
  toSlot: (stored) => String(stored),
  // a page's slot text is the rendered form already: no Date made and written back
  fromSlot: (slot) =>
    typeof slot === 'string' && isIsoUtc(slot) ? slot : instantOf(slot).toISOString(),
  render: (stored) => stored,
  json: datetimeJson,
  filter: {
    kind: 'datetime',
    operators: ORDERED_OPERATORS,
    operand(raw) {
      const instant = typeof raw === 'string' ? parseInstant(raw) : undefined;
      return instant ? accept(instant.toISOString()) : reject(MESSAGE);
    },
  },
};
