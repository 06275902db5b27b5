import { accept, ORDERED_OPERATORS, reject, type FieldType, type Parsed } from './fieldType.js';
import { referenceJson } from './jsonInSql.js';

const ID_TEXT = /^\d{1,16}$/;

/** An ID given as a JSON integer or digits ("42"), positive and exact in a double. */
export function parseId(input: unknown): Parsed<number> {
  const n = typeof input === 'string' && ID_TEXT.test(input) ? Number(input) : input;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) return reject('must be an ID');
  return accept(n);
}

/**
 * `contact` and `bot`: the ID of one of the caller's contacts / bots. Existence (422) and
 * ownership (403) are checked by the list items layer, which sees all values at once.
 */
export function makeReferenceType(name: 'contact' | 'bot'): FieldType {
  return {
    name,
    slotFamily: 'numeric',
    references: name,
    parse: (input) => parseId(input),
    toSlot: (stored) => String(stored),
    fromSlot: (slot) => Number(slot),
    render: (stored) => stored,
    json: referenceJson,
    filter: {
      kind: 'numeric',
      operators: ORDERED_OPERATORS,
      operand(raw) {
        const n = typeof raw === 'string' && /^-?\d{1,16}$/.test(raw) ? Number(raw) : raw;
        return typeof n === 'number' && Number.isSafeInteger(n)
          ? accept(String(n))
          : reject('must be an ID');
      },
    },
  };
}
