import { accept, ALL_OPERATORS, reject, type FieldType, type Parsed } from './fieldType.js';
import { charLength, isStorableText } from './text.js';
import { textJson } from './jsonInSql.js';

/**
 * Longest string value. The slot columns carry btree indexes, whose entries must stay
 * under ~2.7 kB: 500 characters are at most 2,000 bytes of UTF-8.
 */
export const MAX_STRING_CHARS = 500;

function toText(input: unknown): Parsed<string> {
  // A JSON number is taken as its text (GET and form send every value as text anyway).
  const text = typeof input === 'number' && Number.isFinite(input) ? String(input) : input;
  if (typeof text !== 'string') return reject('must be a string');
  if (!isStorableText(text)) return reject('contains characters that cannot be stored');
  return accept(text);
}

/** `string`: text up to 500 characters, stored as given (not trimmed). */
export const stringType: FieldType = {
  name: 'string',
  slotFamily: 'text',
  parse(input) {
    const text = toText(input);
    if (text.ok && charLength(text.value) > MAX_STRING_CHARS)
      return reject(`may not be greater than ${MAX_STRING_CHARS} characters`);
    return text;
  },
  toSlot: (stored) => String(stored),
  fromSlot: (slot) => String(slot),
  render: (stored) => stored,
  json: textJson,
  filter: {
    kind: 'text',
    operators: ALL_OPERATORS,
    // getListItems: a JSON number is compared as text.
    operand: (raw) => toText(raw),
  },
};
